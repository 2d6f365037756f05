import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.js';
import { createRowRunner } from '../../src/execution/run-row.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import { isStreamRoute, type TableRoute } from '../../src/execution/route.js';
import { routes } from '../../src/execution/routes.js';
import { toSchema } from '../../src/schema/index.js';

interface Recorded {
  name: string;
  request: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}
interface DocResponse {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: { allOf?: [unknown, { properties: { code: { enum: string[] } } }] } }>;
}

const schema = toSchema();
const runner = createRowRunner(schema, routes);
const doc = buildOpenApi(runner.routes, runner.shapes) as { paths: Record<string, Record<string, { responses: Record<string, DocResponse> }>> };
// Real answers: every route of the table, successes and errors, as the recorded-body test drives them.
const recorded = (JSON.parse(readFileSync(new URL('./recorded-bodies.json', import.meta.url), 'utf8')) as { responses: Recorded[] }).responses;

const routeOf = (request: string): TableRoute | undefined => {
  const [method, url = ''] = request.split(' ');
  const path = new URL(url, 'http://x').pathname.replace(/^\/v1/, '');
  return runner.routes.find((route) => route.method === method && new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
};
const documented = (route: TableRoute, status: number): DocResponse | undefined => doc.paths[route.path]?.[route.method.toLowerCase()]?.responses[String(status)];

describe('GET /v1/openapi.json tells the truth', () => {
  const answers = recorded.map((answer) => ({ answer, route: routeOf(answer.request) })).filter((entry): entry is { answer: Recorded; route: TableRoute } => entry.route !== undefined);

  it('was given real answers of every route (streamed rows aside: recorded-bodies.test.ts leaves them to test/export)', () => {
    expect(new Set(answers.map(({ route }) => route)).size).toBe(runner.routes.filter((route) => !isStreamRoute(route)).length);
  });

  it('lists every status a route answered, with that answer’s error code and headers', () => {
    const missing: string[] = [];
    for (const { answer, route } of answers) {
      const response = documented(route, answer.status);
      if (!response) {
        missing.push(`${answer.request} → ${answer.status} (${answer.name})`);
        continue;
      }
      if (answer.status >= 400) {
        const code = (JSON.parse(answer.body) as { code: string }).code;
        const codes = response.content?.['application/json']?.schema.allOf?.[1].properties.code.enum ?? [];
        if (!codes.includes(code)) missing.push(`${answer.request} → ${answer.status} ${code} (${answer.name})`);
      }
      if ('x-ratelimit-limit' in answer.headers && !response.headers?.['X-RateLimit-Limit']) missing.push(`${answer.request} → ${answer.status}: X-RateLimit-* not documented`);
      if ('location' in answer.headers && !response.headers?.Location) missing.push(`${answer.request} → ${answer.status}: Location not documented`);
      if ('idempotent-replayed' in answer.headers && !doc.paths[route.path]?.[route.method.toLowerCase()]?.responses[String(route.success.status)]?.headers?.['Idempotent-Replayed']) {
        missing.push(`${answer.request}: Idempotent-Replayed not documented`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every code of the error table somewhere, except those answered before routing or only by /graphql', () => {
    const outsideRoutes: ErrorCode[] = ['method_not_allowed', 'query_too_complex', 'not_acceptable', 'unsupported_media_type'];
    const listed = new Set<string>();
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses)) {
          for (const code of response.content?.['application/json']?.schema.allOf?.[1].properties.code.enum ?? []) listed.add(code);
        }
      }
    }
    expect((Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => !listed.has(code) && !outsideRoutes.includes(code))).toEqual([]);
  });

  it('does not list 402 where the plan gate does not apply, nor 403 where no scope is needed', () => {
    const deleteWebhook = doc.paths['/webhooks/{id}']?.delete?.responses ?? {};
    expect(Object.keys(deleteWebhook)).not.toContain('402');
    expect(Object.keys(doc.paths['/webhooks']?.get?.responses ?? {})).not.toContain('403');
    expect(Object.keys(doc.paths['/site-catalog']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '404', '429']));
  });
});
