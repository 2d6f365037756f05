import { idTextWith } from '../../domain/validation.js';

/** A query-string id (`domainId`, decisions §5): the canonical id rule, with v1's message. */
export const idQueryParam = idTextWith('must be a positive integer');
