import { describe, expect, it } from 'vitest';
import { isoString } from '../../src/schema/scalars.js';

describe('DateTime serialization', () => {
  it('writes exactly what Date#toISOString writes, for every year', () => {
    const samples = [
      Date.UTC(1000, 0, 1, 0, 0, 0, 0),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2026, 1, 28, 9, 5, 7, 10),
      Date.UTC(2024, 1, 29, 12, 0, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      // The builtin's own forms: before year 1000, negative and six-digit years.
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      Date.UTC(-1, 0, 1),
      0,
      -1,
    ];
    let seed = 42;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor((random() - 0.3) * 4e14));
    for (const time of samples) {
      const date = new Date(time);
      expect(isoString(date), String(time)).toBe(date.toISOString());
    }
  });

  it('refuses an invalid date as the builtin does', () => {
    expect(() => isoString(new Date(NaN))).toThrow(RangeError);
  });
});
