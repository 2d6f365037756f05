import { z } from 'zod';
import { requireApiKeyViewer } from '../../context.js';
import { parseCreatedRange } from '../../domain/created-range.js';
import { createdRangeQuery } from '../../domain/list-filters.js';
import { chunked, exportFormSubmissions, type ExportFormat } from '../../domain/submissions/export.service.js';
import type { Submission } from '../../generated/prisma/client.js';
import type { Present } from '../present.js';
import { defineStreamRoute, type StreamRoute } from '../route.js';
import { formSubmissionsBodyVersion } from './form-versions.js';

/** `GET /forms/{id}/submissions/export` (contract §6.4): a streamed row (src/execution/README.md). */

const MEDIA: Record<ExportFormat, string> = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' };

/**
 * One v1 Submission per line, the same bytes as `GET /submissions/{id}` answers: `present` runs that route's
 * fragment on the row (src/execution/present.ts), decrypting a PHI form's data as the field's resolver does.
 */
async function* ndjsonLines(rows: AsyncIterable<Submission>, present: Present<Submission>): AsyncGenerator<string> {
  for await (const row of rows) yield `${JSON.stringify(await present(row))}\n`;
}

export const exportRoutes: StreamRoute[] = [
  defineStreamRoute({
    method: 'GET',
    path: '/forms/{id}/submissions/export',
    summary: "Export a form's submissions",
    description:
      'Streams every submission of a form (archived forms too), oldest first, as NDJSON (one v1 Submission per line, the default) or CSV (RFC 4180: id, createdAt, sourceDomain, one column per field label, then other formData keys sorted); optional createdAt window. One request of budget whatever the size. Needs read:submissions.',
    tag: 'Submissions',
    auth: 'apiKey',
    scope: 'read:submissions',
    query: z.object({ format: z.enum(['ndjson', 'csv']).optional().describe('default ndjson'), ...createdRangeQuery }),
    operationId: 'export-form-submissions',
    // Its ETag (contract §6.2): the form's version counts every write to the form and its submissions.
    version: formSubmissionsBodyVersion,
    stream: async ({ params, query }, context, { present }) => {
      const format: ExportFormat = query.format === 'csv' ? 'csv' : 'ndjson';
      // Input before lookup (contract §4 order of checks): the range is checked before the form is read.
      const range = parseCreatedRange(query);
      const viewer = requireApiKeyViewer(context);
      const exported = await exportFormSubmissions(context.deps, { accountId: viewer.accountId, apiKeyId: viewer.keyId }, params.id, { format, range });
      const body = exported.format === 'csv' ? exported.chunks : chunked(ndjsonLines(exported.rows, present.submission));
      return {
        status: 200,
        headers: { 'content-type': MEDIA[format], 'content-disposition': `attachment; filename="form-${params.id}-submissions.${format}"` },
        body,
      };
    },
    success: {
      status: 200,
      headers: ['Content-Disposition'],
      // Each NDJSON line is GET /submissions/{id}'s body: its schema is generated from that route's operation.
      media: { [MEDIA.ndjson]: {
          linesOf: 'get-submission',
          description: 'Newline-delimited JSON: one line per submission, each a JSON object as GET /submissions/{id} answers it (x-itemSchema), ending in a line feed',
        }, [MEDIA.csv]: { schema: z.string(), description: 'RFC 4180, CRLF line ends' } },
    },
  }),
];
