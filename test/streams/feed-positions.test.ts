import { describe, expect, it } from 'vitest';
import { comparePositions } from '../../src/domain/webhooks/event-feed.service.js';

describe('comparePositions', () => {
  it('orders by transaction id as numbers (decimal text of any length), then by row id', () => {
    const txids = ['0', '7', '9', '10', '99', '100', '4294967295', '4294967296', '9223372036854775807'];
    for (let i = 0; i < 2000; i++) txids.push(String(BigInt(Math.floor(Math.random() * 2 ** 20)) * BigInt(Math.floor(Math.random() * 2 ** 33))));
    const positions = txids.flatMap((txid) => [0, 1, 12].map((id) => ({ txid, id })));
    const byBigInt = (a: { txid: string; id: number }, b: { txid: string; id: number }): number => {
      const [x, y] = [BigInt(a.txid), BigInt(b.txid)];
      return x !== y ? (x < y ? -1 : 1) : a.id - b.id;
    };
    for (let i = 0; i < 20_000; i++) {
      const a = positions[Math.floor(Math.random() * positions.length)]!;
      const b = positions[Math.floor(Math.random() * positions.length)]!;
      expect(Math.sign(comparePositions(a, b))).toBe(Math.sign(byBigInt(a, b)));
    }
  });
});
