import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PhiCipher, PhiDecryptError } from '../../src/infra/phi-crypto.js';

const secret = randomBytes(32);
const formData = { 'Full name': 'Ada Lovelace', Diagnosis: 'hypertension', Email: 'ada@example.com' };

describe('PhiCipher', () => {
  it('round-trips a value through encrypt and decrypt', () => {
    const cipher = new PhiCipher(secret);
    const { ciphertext, keyId } = cipher.encrypt(formData);
    expect(cipher.decrypt(ciphertext, keyId)).toStrictEqual(formData);
  });

  it('leaves none of the plaintext in the ciphertext', () => {
    const { ciphertext } = new PhiCipher(secret).encrypt(formData);
    const raw = Buffer.from(ciphertext);
    for (const needle of ['Ada', 'hypertension', 'ada@example.com', 'Diagnosis']) {
      expect(raw.includes(Buffer.from(needle))).toBe(false);
      expect(raw.toString('latin1')).not.toContain(needle);
    }
  });

  it('uses a fresh data key per record, so equal values encrypt differently', () => {
    const cipher = new PhiCipher(secret);
    const a = Buffer.from(cipher.encrypt(formData).ciphertext);
    const b = Buffer.from(cipher.encrypt(formData).ciphertext);
    expect(a.equals(b)).toBe(false);
  });

  it('names the master key with a stable id that does not reveal it', () => {
    const one = new PhiCipher(secret).encrypt(1).keyId;
    expect(new PhiCipher(Buffer.from(secret)).encrypt(2).keyId).toBe(one);
    expect(new PhiCipher(randomBytes(32)).keyId).not.toBe(one);
    expect(one).toMatch(/^phi-[0-9a-f]{16}$/);
  });

  it('detects tampering with any part of the record', () => {
    const cipher = new PhiCipher(secret);
    const { ciphertext, keyId } = cipher.encrypt(formData);
    for (const index of [0, 5, 20, 50, 70, ciphertext.length - 1]) {
      const tampered = Uint8Array.from(ciphertext);
      tampered[index] = (tampered[index] ?? 0) ^ 0x01;
      expect(() => cipher.decrypt(tampered, keyId)).toThrow(PhiDecryptError);
    }
    expect(() => cipher.decrypt(ciphertext.subarray(0, 40), keyId)).toThrow(PhiDecryptError);
  });

  it('refuses a record relabelled with another key id or opened with another secret', () => {
    const { ciphertext, keyId } = new PhiCipher(secret).encrypt(formData);
    const other = new PhiCipher(randomBytes(32), [randomBytes(32)]);
    expect(() => other.decrypt(ciphertext, keyId)).toThrow(PhiDecryptError);
    expect(() => other.decrypt(ciphertext, other.keyId)).toThrow(PhiDecryptError);
  });

  it('reads rows of a previous secret after rotation and re-wraps them under the new key', () => {
    const old = new PhiCipher(secret);
    const row = old.encrypt(formData);
    const rotated = new PhiCipher(randomBytes(32), [secret]);
    expect(rotated.decrypt(row.ciphertext, row.keyId)).toStrictEqual(formData);
    const rewrapped = rotated.rewrap(row.ciphertext, row.keyId);
    expect(rewrapped.keyId).toBe(rotated.keyId);
    expect(rotated.decrypt(rewrapped.ciphertext, rewrapped.keyId)).toStrictEqual(formData);
    expect(() => old.decrypt(rewrapped.ciphertext, rewrapped.keyId)).toThrow(PhiDecryptError);
  });

  it('never puts plaintext in its error messages', () => {
    const cipher = new PhiCipher(secret);
    const { ciphertext, keyId } = cipher.encrypt(formData);
    const tampered = Uint8Array.from(ciphertext);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff;
    try {
      cipher.decrypt(tampered, keyId);
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toMatch(/Ada|hypertension/);
    }
  });
});
