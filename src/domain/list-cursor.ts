import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';

/**
 * Decisions §7.6: a cursor is an opaque position in one list with its filters. It carries the last row's place in
 * the list's order (createdAt, id), so a cursor page is a keyset read that costs what page 1 costs at any depth and
 * stays valid when that row is erased. A checksum over the position, the list and its filters makes a cursor made
 * for another list, other filters, another account, or edited by hand a 400 `invalid_cursor` (a guessed position
 * would reveal nothing: the list's own scoping still applies, so a checksum, not a secret, is enough).
 */

/** A row's place in the newest-first order (createdAt desc, id desc). */
export interface ListPosition {
  createdAt: Date;
  id: number;
}

/**
 * Which list a cursor walks: the account whose list it is, its name with the parent's id (`form:12:submissions`) and
 * its filters, each written canonically (null when absent), so that the same list and filters always make the same
 * key. The account is part of it so that another account's cursor is 400 `invalid_cursor`, checked with the input,
 * like any cursor not of this list, and not a 404 of the lookup (contract §7.6).
 */
export interface ListKey {
  accountId: number;
  list: string;
  filters: Record<string, string | number | Date | null | undefined>;
}

const VERSION = 1;
/** version (1) + createdAt ms (8, float64) + id (4) + checksum (12). */
const BYTES = 25;
const CHECKSUM_BYTES = 12;

const canonical = (key: ListKey): string =>
  [
    `account:${key.accountId}`,
    key.list,
    ...Object.keys(key.filters)
      .sort()
      .map((name) => {
        const value = key.filters[name];
        return `${name}=${value instanceof Date ? value.getTime() : (value ?? '')}`;
      }),
  ].join('&');

const checksum = (key: ListKey, head: Buffer): Buffer => createHash('sha256').update(head).update(canonical(key)).digest().subarray(0, CHECKSUM_BYTES);

export function encodeCursor(key: ListKey, position: ListPosition): string {
  const head = Buffer.alloc(BYTES - CHECKSUM_BYTES);
  head.writeUInt8(VERSION, 0);
  head.writeDoubleBE(position.createdAt.getTime(), 1);
  head.writeInt32BE(position.id, 9);
  return Buffer.concat([head, checksum(key, head)]).toString('base64url');
}

/** The position a cursor names in this list with these filters; 400 `invalid_cursor` for anything else. */
export function decodeCursor(key: ListKey, cursor: string): ListPosition {
  const invalid = new AppError('invalid_cursor');
  if (!/^[A-Za-z0-9_-]{34}$/.test(cursor)) throw invalid;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length !== BYTES || bytes.readUInt8(0) !== VERSION) throw invalid;
  const head = bytes.subarray(0, BYTES - CHECKSUM_BYTES);
  if (!checksum(key, head).equals(bytes.subarray(BYTES - CHECKSUM_BYTES))) throw invalid;
  const time = head.readDoubleBE(1);
  const id = head.readInt32BE(9);
  if (!Number.isSafeInteger(time) || id < 1) throw invalid;
  return { createdAt: new Date(time), id };
}
