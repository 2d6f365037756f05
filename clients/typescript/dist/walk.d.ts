import type { WidgetsClient } from './index.js';
import type { paths } from './schema.js';
/** The lists that can be walked by cursor (decisions §7.6). */
export type WalkablePath = '/forms/{id}/submissions' | '/calendar-widgets/{id}/bookings' | '/ecommerce-widgets/{id}/orders' | '/events';
type Query<P extends WalkablePath> = NonNullable<paths[P]['get']['parameters']['query']>;
type Row<P extends WalkablePath> = paths[P]['get']['responses'][200]['content']['application/json']['data'][number];
export interface WalkOptions<P extends WalkablePath> {
    /** `{ id }` for a child list; none for `/events`. */
    path?: P extends '/events' ? never : {
        id: number;
    };
    /** The list's filters and page size; `page` and `after` are the walk's own. */
    query?: Omit<Query<P>, 'page' | 'after'>;
}
/** A v1 error answer met during a walk: `body` is the `{ error, code, … }` envelope. */
export declare class WalkError extends Error {
    readonly status: number;
    readonly body: unknown;
    constructor(status: number, body: unknown);
}
/**
 * Every row of a list, newest first, page by page along its cursors: `for await (const row of walk(client,
 * '/forms/{id}/submissions', { path: { id: 12 }, query: { limit: 100 } }))`. A walk never repeats a row and never
 * skips one that existed when it began, whatever is written meanwhile; each page costs what page 1 costs.
 */
export declare function walk<P extends WalkablePath>(client: WidgetsClient, list: P, options?: WalkOptions<P>): AsyncGenerator<Row<P>>;
export {};
