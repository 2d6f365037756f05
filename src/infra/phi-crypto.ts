import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { deriveKey } from './secrets.js';

/**
 * Envelope encryption of PHI form data (contract §4 "PHI handling"): every record gets its own random
 * data key (AES-256-GCM), which is itself wrapped by a master key derived from SECRET_KEY. The stored
 * `keyId` names the master key, so a rotated SECRET_KEY can still open old rows (pass the previous
 * secrets) and rows can be re-wrapped without touching their data.
 *
 * Layout (version 1): 0x01 | wrapIv(12) | wrappedKey(32) | wrapTag(16) | dataIv(12) | dataTag(16) | data.
 * Both GCM operations authenticate the version byte and the key id, so tampering with any byte, or
 * relabelling a row with another key id, fails decryption.
 */
const VERSION = 1;
const IV = 12;
const TAG = 16;
const KEY = 32;
const HEADER = 1 + IV + KEY + TAG + IV + TAG;

export class PhiDecryptError extends Error {
  constructor(message = 'PHI ciphertext could not be decrypted') {
    super(message);
    this.name = 'PhiDecryptError';
  }
}

interface MasterKey {
  id: string;
  key: Buffer;
}

function masterKeyFrom(secretKey: Buffer): MasterKey {
  const key = deriveKey(secretKey, 'phi');
  // A fingerprint, not the key: one-way, so the id in each row reveals nothing about the key.
  const id = `phi-${createHmac('sha256', key).update('key-id').digest('hex').slice(0, 16)}`;
  return { id, key };
}

export class PhiCipher {
  private readonly current: MasterKey;
  private readonly byId = new Map<string, MasterKey>();

  /** `previousSecretKeys`: older SECRET_KEYs whose rows must stay readable after a rotation. */
  constructor(secretKey: Buffer, previousSecretKeys: Buffer[] = []) {
    this.current = masterKeyFrom(secretKey);
    for (const master of [this.current, ...previousSecretKeys.map(masterKeyFrom)]) {
      if (!this.byId.has(master.id)) this.byId.set(master.id, master);
    }
  }

  /** Whether a configured key (current or previous) opens rows labelled `keyId`. */
  canOpen(keyId: string): boolean {
    return this.byId.has(keyId);
  }

  /** The id of the master key new rows are wrapped with. */
  get keyId(): string {
    return this.current.id;
  }

  encrypt(value: unknown): { ciphertext: Uint8Array<ArrayBuffer>; keyId: string } {
    const plaintext = Buffer.from(JSON.stringify(value ?? null), 'utf8');
    const aad = this.aad(this.current.id);
    const dataKey = randomBytes(KEY);
    try {
      const dataIv = randomBytes(IV);
      const dataCipher = createCipheriv('aes-256-gcm', dataKey, dataIv).setAAD(aad);
      const data = Buffer.concat([dataCipher.update(plaintext), dataCipher.final()]);
      const dataTag = dataCipher.getAuthTag();
      const wrapped = this.wrap(dataKey, this.current, aad);
      const ciphertext = Buffer.concat([Buffer.from([VERSION]), wrapped, dataIv, dataTag, data]);
      return { ciphertext: new Uint8Array(ciphertext), keyId: this.current.id };
    } finally {
      dataKey.fill(0);
    }
  }

  decrypt(ciphertext: Uint8Array, keyId: string): unknown {
    const buf = Buffer.from(ciphertext);
    const master = this.byId.get(keyId);
    if (!master) throw new PhiDecryptError('PHI ciphertext is wrapped by an unknown key id');
    if (buf.length < HEADER || buf[0] !== VERSION) throw new PhiDecryptError();
    const aad = this.aad(keyId);
    try {
      const dataKey = this.unwrap(buf.subarray(1, 1 + IV + KEY + TAG), master, aad);
      let offset = 1 + IV + KEY + TAG;
      const dataIv = buf.subarray(offset, (offset += IV));
      const dataTag = buf.subarray(offset, (offset += TAG));
      const decipher = createDecipheriv('aes-256-gcm', dataKey, dataIv).setAAD(aad);
      decipher.setAuthTag(dataTag);
      const plaintext = Buffer.concat([decipher.update(buf.subarray(offset)), decipher.final()]);
      dataKey.fill(0);
      return JSON.parse(plaintext.toString('utf8')) as unknown;
    } catch {
      // GCM's own message is generic already; never echo any part of the data.
      throw new PhiDecryptError();
    }
  }

  /**
   * Rotation without touching the data: unwraps the record's data key with its old master key and
   * wraps it with the current one. Returns the row unchanged when it is already current.
   */
  rewrap(ciphertext: Uint8Array<ArrayBuffer>, keyId: string): { ciphertext: Uint8Array<ArrayBuffer>; keyId: string } {
    if (keyId === this.current.id) return { ciphertext, keyId };
    const value = this.decrypt(ciphertext, keyId);
    return this.encrypt(value);
  }

  private aad(keyId: string): Buffer {
    return Buffer.from(`v${VERSION}:${keyId}`, 'utf8');
  }

  private wrap(dataKey: Buffer, master: MasterKey, aad: Buffer): Buffer {
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', master.key, iv).setAAD(aad);
    const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return Buffer.concat([iv, wrapped, cipher.getAuthTag()]);
  }

  private unwrap(blob: Buffer, master: MasterKey, aad: Buffer): Buffer {
    const iv = blob.subarray(0, IV);
    const wrapped = blob.subarray(IV, IV + KEY);
    const tag = blob.subarray(IV + KEY, IV + KEY + TAG);
    const decipher = createDecipheriv('aes-256-gcm', master.key, iv).setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(wrapped), decipher.final()]);
  }
}
