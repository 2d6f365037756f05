import { AppError, validationFailed } from '../errors.js';
import { decodeCursor, encodeCursor, type ListKey, type ListPosition } from './list-cursor.js';

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_PAGE = 1_000_000;

export interface PageRequest {
  page: number;
  limit: number;
}

export interface Pagination extends PageRequest {
  total: number;
  pages: number;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

const invalid = (): AppError => new AppError('invalid_pagination');

/** The contract's rules for numbers, shared by both transports (GraphQL passes Ints, REST parsed strings). */
export function normalizePagination(page: number | null | undefined, limit: number | null | undefined): PageRequest {
  const p = page ?? DEFAULT_PAGE;
  const l = limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(p) || p < 1 || p > MAX_PAGE) throw invalid();
  if (!Number.isInteger(l) || l < 1) throw invalid();
  return { page: p, limit: Math.min(l, MAX_LIMIT) };
}

/** Query-string form: whole decimal numbers only ("1.5", "1e3", "abc", "" are invalid); a huge limit clamps. */
export function parsePaginationQuery(page: string | undefined, limit: string | undefined): PageRequest {
  const whole = (raw: string | undefined): number | undefined => {
    if (raw === undefined) return undefined;
    if (!/^-?[0-9]+$/.test(raw)) throw invalid();
    return Number(raw);
  };
  const l = whole(limit);
  return normalizePagination(whole(page), l !== undefined && l > MAX_LIMIT ? MAX_LIMIT : l);
}

export const skipTake = ({ page, limit }: PageRequest): { skip: number; take: number } => ({ skip: (page - 1) * limit, take: limit });

/** The v1 list order: newest first, ties broken by the newer id. */
export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** A page from its total and a read of its rows; a page past the end reads nothing. */
export async function pageOf<T>(request: PageRequest, total: number, read: (window: { skip: number; take: number }) => Promise<T[]>): Promise<Page<T>> {
  const window = skipTake(request);
  return toPage(total > window.skip ? await read(window) : [], request, total);
}

export function toPage<T>(data: T[], request: PageRequest, total: number): Page<T> {
  return { data, pagination: { page: request.page, limit: request.limit, total, pages: Math.ceil(total / request.limit) } };
}

/**
 * A list that can also be walked by cursor (decisions §7.6): page mode (`page`, with its total) or cursor mode
 * (`after`: the rows that follow the cursor's row, no total). `after` is still the client's opaque string here: the
 * list's service decodes it against its own key (list-cursor.ts).
 */
export interface WalkRequest {
  limit: number;
  /** Page mode: the page number; null in cursor mode. */
  page: number | null;
  after: string | null;
}

/** `{ limit, next }`: the cursor of the following page, or null after the last row. */
export interface CursorPagination {
  limit: number;
  next: string | null;
}

/** A page of a walkable list: in page mode its pagination too, in either mode the cursor of what follows. */
export interface WalkPage<T> {
  data: T[];
  /** Null in cursor mode (no total is counted there). */
  pagination: Pagination | null;
  cursor: CursorPagination;
}

/** `page` and `after` together are ambiguous: the same answer on every transport. */
export function walkRequest(page: number | null | undefined, limit: number | null | undefined, after: string | null | undefined): WalkRequest {
  if (page != null && after != null) throw validationFailed([{ field: 'after', message: 'cannot be combined with page' }]);
  const normalized = normalizePagination(page, limit);
  return after != null ? { limit: normalized.limit, page: null, after } : { limit: normalized.limit, page: normalized.page, after: null };
}

/**
 * The page mode's answer: its rows were read with offset `(page - 1) * limit`, and more follow while that offset
 * plus the rows read stays below the total; `next` is then the cursor of the page's last row.
 */
export function pageModePage<T>(data: T[], request: PageRequest, total: number, nextOf: (last: T) => string): WalkPage<T> {
  const last = data.at(-1);
  const more = last !== undefined && (request.page - 1) * request.limit + data.length < total;
  return { ...toPage(data, request, total), cursor: { limit: request.limit, next: more && last !== undefined ? nextOf(last) : null } };
}

/** The cursor mode's answer from `limit + 1` rows read after the cursor: the extra row only says that more follow. */
export function cursorModePage<T>(rows: T[], limit: number, nextOf: (last: T) => string): WalkPage<T> {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, pagination: null, cursor: { limit, next: rows.length > limit && last !== undefined ? nextOf(last) : null } };
}

/** Prisma's keyset condition after a position: createdAt ≤ c bounds the index range, the tie on c is broken by id. */
export const afterPosition = (position: ListPosition) => ({
  createdAt: { lte: position.createdAt },
  OR: [{ createdAt: { lt: position.createdAt } }, { id: { lt: position.id } }],
});

/**
 * A walkable list read with Prisma: in page mode the window at its offset (nothing past the total), in cursor mode
 * `limit + 1` rows after the cursor's position (`after` merged into the list's own condition by the caller).
 */
export async function walkPageOf<T extends ListPosition>(
  request: WalkRequest,
  key: ListKey,
  /** The parent's lookup (404 when absent) with, when `counting`, the list's total. */
  total: (counting: boolean) => Promise<number>,
  read: (window: { skip: number; take: number; after: ReturnType<typeof afterPosition> | null }) => Promise<T[]>,
): Promise<WalkPage<T>> {
  const nextOf = (last: T) => encodeCursor(key, last);
  if (request.after !== null) {
    const position = decodeCursor(key, request.after);
    // The parent's lookup comes first, so that an absent parent answers 404, as in page mode; nothing is counted.
    await total(false);
    return cursorModePage(await read({ skip: 0, take: request.limit + 1, after: afterPosition(position) }), request.limit, nextOf);
  }
  const pageRequest = { page: request.page ?? DEFAULT_PAGE, limit: request.limit };
  const count = await total(true);
  const window = skipTake(pageRequest);
  return pageModePage(count > window.skip ? await read({ ...window, after: null }) : [], pageRequest, count, nextOf);
}
