import { z } from 'zod';
import { idTextWith } from '../../domain/validation.js';

/** A query-string id (`domainId`, decisions §5): the canonical id rule, with v1's message. */
export const idQueryParam = idTextWith('must be a positive integer');

/** ISO 8601 date-time with `Z` or an offset (decisions §6.1 `createdFrom` / `createdBefore`). */
export const isoDateTimeParam = z.iso.datetime({ offset: true });
