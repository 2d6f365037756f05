import { describe, expect, it } from 'vitest';
import { parseIsoDateTime } from '../../src/domain/created-range.js';

/** The one parser behind every createdFrom / createdBefore (lists, export, events, the GraphQL DateTime scalar). */
describe('parseIsoDateTime', () => {
  it('reads offsets, any case, and rounds sub-milliseconds up', () => {
    expect(parseIsoDateTime('2026-01-31t00:00:00z')?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(parseIsoDateTime('2026-03-01T11:00:00+01:00')?.toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(parseIsoDateTime('2024-02-29T23:59:59.9991+01:00')?.toISOString()).toBe('2024-02-29T23:00:00.000Z');
    expect(parseIsoDateTime('9999-12-31T23:59:59.999Z')?.toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('keeps years below 100 as written (Date.UTC would read 0050 as 1950)', () => {
    expect(parseIsoDateTime('0050-02-28T00:00:00Z')?.toISOString()).toBe('0050-02-28T00:00:00.000Z');
  });

  it('refuses what is not a calendar instant with an offset', () => {
    // The offset carries these across the calendar's ends: year 0 and year 10000 in UTC.
    for (const raw of ['0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-01:00']) expect(parseIsoDateTime(raw), raw).toBeNull();
    for (const raw of ['0000-01-01T00:00:00Z', '0050-02-29T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00', 'yesterday', '2026-01-01']) {
      expect(parseIsoDateTime(raw), raw).toBeNull();
    }
  });
});
