import { createHash } from 'node:crypto';
import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { derivedJobId } from '../../src/domain/webhooks/events.service.js';

/** RFC 9562 §5.5 by hand: SHA-1 of namespace bytes + name, version 5 in the high nibble of byte 6, variant 10 in byte 8. */
function uuidV5ByHand(name: string, namespace: string): string {
  const bytes = createHash('sha1').update(Buffer.from(namespace.replaceAll('-', ''), 'hex')).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

describe('derived job ids', () => {
  it('are the same for the same event and purpose, and differ when either differs', () => {
    const id = derivedJobId('evt_0abc', 'submission_confirmation');
    expect(derivedJobId('evt_0abc', 'submission_confirmation')).toBe(id);
    expect(derivedJobId('evt_0abc', 'submission_notification')).not.toBe(id);
    expect(derivedJobId('evt_0abd', 'submission_confirmation')).not.toBe(id);
  });

  it('are UUIDv5 with their version and variant bits, as RFC 9562 computes them', () => {
    const id = derivedJobId('webhook-7', '2026-01-02T03:04:05.000Z');
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(5);
    expect(id[19]).toMatch(/[89ab]/);
    expect(id).toBe(uuidV5ByHand('webhook-7:2026-01-02T03:04:05.000Z', '82a559c4-3a0b-4f1a-a086-7d79c72e8a1a'));
  });
});
