import { AppError } from '../errors.js';

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
