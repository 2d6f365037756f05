/** A v1 error answer met during a walk: `body` is the `{ error, code, … }` envelope. */
export class WalkError extends Error {
    status;
    body;
    constructor(status, body) {
        super(`walk stopped: HTTP ${status}`);
        this.status = status;
        this.body = body;
    }
}
/**
 * Every row of a list, newest first, page by page along its cursors: `for await (const row of walk(client,
 * '/forms/{id}/submissions', { path: { id: 12 }, query: { limit: 100 } }))`. A walk never repeats a row and never
 * skips one that existed when it began, whatever is written meanwhile; each page costs what page 1 costs.
 */
export async function* walk(client, list, options = {}) {
    let after;
    do {
        const query = { ...options.query, ...(after && { after }) };
        // openapi-fetch's GET is typed per path; the four paths share the parameters passed here.
        const get = client.GET;
        const { data, error, response } = await get(list, { params: { ...(options.path && { path: options.path }), query } });
        if (error !== undefined || data === undefined)
            throw new WalkError(response.status, error);
        const page = data;
        yield* page.data;
        // Page 1 is a page-mode answer (its cursor is in the Link header); every later one carries `next`.
        after = after === undefined ? nextFromLink(response.headers.get('link')) : (page.pagination.next ?? null);
    } while (after);
}
function nextFromLink(link) {
    const target = /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1];
    return target ? new URL(target, 'http://x').searchParams.get('after') : null;
}
