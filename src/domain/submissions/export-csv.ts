import type { Submission } from '../../generated/prisma/client.js';
import { isPlainObject } from '../validation.js';

/**
 * The CSV of an export (contract §6.4): RFC 4180 (fields quoted when they hold a quote, comma, CR or LF;
 * quotes doubled; CRLF line ends), header `id,createdAt,sourceDomain`, then one column per field label in the
 * form's order, then the other formData keys sorted. A cell starting with `=`, `+`, `-`, `@`, tab or CR is
 * prefixed with `'`, so a spreadsheet shows it as text instead of running it as a formula (CSV injection).
 */

export interface ExportColumns {
  /** formData keys, in column order. */
  keys: string[];
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Numbers and booleans are written by JSON.stringify too (the same digits as String() for the finite numbers JSON
 * holds): String() goes through V8's number-to-string cache, which kept every row's id string alive past the young
 * generation's collections, so a 1M-row export promoted ~25 MB of them into the old generation (--trace-gc-nvp:
 * 111 → 52 KB promoted per scavenge with the gateway's 16 MB semi-spaces).
 */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = value;
  else text = JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const line = (cells: unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** Labels of the form's fields in order (each once), then every other key, sorted by code unit (not by locale). */
export function exportColumns(fields: unknown, formDataKeys: string[]): ExportColumns {
  const labels: string[] = [];
  for (const field of Array.isArray(fields) ? fields : []) {
    const label = isPlainObject(field) ? field.label : undefined;
    if (typeof label === 'string' && !labels.includes(label)) labels.push(label);
  }
  const taken = new Set(labels);
  const others = [...new Set(formDataKeys)].filter((key) => !taken.has(key)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { keys: [...labels, ...others] };
}

export const csvHeader = (columns: ExportColumns): string => line(['id', 'createdAt', 'sourceDomain', ...columns.keys]);

export function csvRow(columns: ExportColumns, submission: Pick<Submission, 'id' | 'createdAt' | 'sourceDomain'>, formData: unknown): string {
  const values = isPlainObject(formData) ? formData : {};
  return line([submission.id, submission.createdAt.toISOString(), submission.sourceDomain, ...columns.keys.map((key) => (Object.hasOwn(values, key) ? values[key] : null))]);
}
