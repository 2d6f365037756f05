import type { WidgetsClient } from './index.js';
import type { paths } from './schema.js';

/** The lists that can be walked by cursor (decisions §7.6). */
export type WalkablePath = '/forms/{id}/submissions' | '/calendar-widgets/{id}/bookings' | '/ecommerce-widgets/{id}/orders' | '/events';

type Query<P extends WalkablePath> = NonNullable<paths[P]['get']['parameters']['query']>;
type Row<P extends WalkablePath> = paths[P]['get']['responses'][200]['content']['application/json']['data'][number];

export interface WalkOptions<P extends WalkablePath> {
  /** `{ id }` for a child list; none for `/events`. */
  path?: P extends '/events' ? never : { id: number };
  /** The list's filters and page size; `page` and `after` are the walk's own. */
  query?: Omit<Query<P>, 'page' | 'after'>;
}

/** A v1 error answer met during a walk: `body` is the `{ error, code, … }` envelope. */
export class WalkError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`walk stopped: HTTP ${status}`);
  }
}

/**
 * Every row of a list, newest first, page by page along its cursors: `for await (const row of walk(client,
 * '/forms/{id}/submissions', { path: { id: 12 }, query: { limit: 100 } }))`. A walk never repeats a row and never
 * skips one that existed when it began, whatever is written meanwhile; each page costs what page 1 costs.
 */
export async function* walk<P extends WalkablePath>(client: WidgetsClient, list: P, options: WalkOptions<P> = {}): AsyncGenerator<Row<P>> {
  let after: string | null | undefined;
  do {
    const query = { ...options.query, ...(after && { after }) };
    // openapi-fetch's GET is typed per path; the four paths share the parameters passed here.
    const get = client.GET as unknown as (path: string, init: { params: { path?: { id: number }; query: unknown } }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await get(list, { params: { ...(options.path && { path: options.path }), query } });
    if (error !== undefined || data === undefined) throw new WalkError(response.status, error);
    const page = data as { data: Row<P>[]; pagination: { next?: string | null } };
    yield* page.data;
    // Page 1 is a page-mode answer (its cursor is in the Link header); every later one carries `next`.
    after = after === undefined ? nextFromLink(response.headers.get('link')) : (page.pagination.next ?? null);
  } while (after);
}

function nextFromLink(link: string | null): string | null {
  const target = /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1];
  return target ? new URL(target, 'http://x').searchParams.get('after') : null;
}
