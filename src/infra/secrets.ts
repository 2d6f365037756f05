import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credentials: API keys (`svc_live_`), site keys (`svc_site_`), verification tokens and webhook secrets.
 * Keys are stored only as an HMAC-SHA256 under a pepper derived from SECRET_KEY, so a leaked database
 * alone cannot be used to test guesses offline.
 */
export const API_KEY_PREFIX = 'svc_live_';
export const SITE_KEY_PREFIX = 'svc_site_';
const KEY_PATTERN = (prefix: string) => new RegExp(`^${prefix}[A-Za-z0-9_-]{43}$`);
const API_KEY_RE = KEY_PATTERN(API_KEY_PREFIX);
const SITE_KEY_RE = KEY_PATTERN(SITE_KEY_PREFIX);

/** A purpose-bound key derived from SECRET_KEY, so one secret never serves two uses. */
export function deriveKey(secretKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `widgets-gateway:${purpose}`, 32));
}

export class KeyHasher {
  private readonly pepper: Buffer;
  private readonly previousPeppers: Buffer[];

  /** `previousSecretKeys`: older SECRET_KEYs whose hashes still match during a rotation (never used to hash anew). */
  constructor(secretKey: Buffer, previousSecretKeys: Buffer[] = []) {
    this.pepper = deriveKey(secretKey, 'credential-pepper');
    const current = this.pepper.toString('hex');
    this.previousPeppers = previousSecretKeys
      .map((previous) => deriveKey(previous, 'credential-pepper'))
      .filter((pepper, index, all) => pepper.toString('hex') !== current && all.findIndex((other) => other.equals(pepper)) === index);
  }

  hash(key: string): string {
    return createHmac('sha256', this.pepper).update(key).digest('hex');
  }

  /** Whether a miss under the current pepper is worth a second look (only during a rotation). */
  get hasPrevious(): boolean {
    return this.previousPeppers.length > 0;
  }

  /** The key's hashes under the previous peppers: what rows written before the rotation hold. */
  previousHashes(key: string): string[] {
    return this.previousPeppers.map((pepper) => createHmac('sha256', pepper).update(key).digest('hex'));
  }

  /** Constant-time: is the stored hash one of the presented key's previous hashes? Checks all of them either way. */
  matchesPrevious(previousHashes: string[], storedHash: string): boolean {
    let found = false;
    for (const candidate of previousHashes) found = this.sameHash(candidate, storedHash) || found;
    return found;
  }

  /**
   * Constant-time comparison of the presented key's hash (the one its row was looked up by: computed once per
   * request) with the stored hash.
   */
  sameHash(presentedHash: string, storedHash: string): boolean {
    const a = Buffer.from(presentedHash, 'hex');
    const b = Buffer.from(storedHash, 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/**
 * The keyed hash an erasure request keeps instead of the address (contract §6.3): HMAC-SHA256 under a key
 * derived from SECRET_KEY of the trimmed, lower-cased value, so the job can recognise the address in formData
 * without it being stored, and a leaked table cannot be checked against guessed addresses offline.
 */
export function createEmailHasher(secretKey: Buffer): (value: string) => string {
  const key = deriveKey(secretKey, 'erasure-email');
  return (value) => createHmac('sha256', key).update(value.trim().toLowerCase()).digest('hex');
}

/** Whether a value is the address behind a stored erasure hash. */
export type EmailMatcher = (value: string, storedHash: string) => boolean;

/**
 * Matches under SECRET_KEY and every previous key: a request stored before a rotation and run by a worker
 * started after it (SECRET_KEY=new, SECRET_KEY_PREVIOUS=old) must still find the address, not erase nothing.
 */
export function createEmailMatcher(secretKey: Buffer, previousSecretKeys: Buffer[] = []): EmailMatcher {
  const hashers = [secretKey, ...previousSecretKeys].map(createEmailHasher);
  return (value, storedHash) => hashers.some((hash) => hash(value) === storedHash);
}

const random43 = (): string => randomBytes(32).toString('base64url');

export const generateApiKey = (): string => API_KEY_PREFIX + random43();
export const generateSiteKey = (): string => SITE_KEY_PREFIX + random43();
/** 24 random bytes: 32 base64url characters (contract §4). */
export const generateVerificationToken = (): string => randomBytes(24).toString('base64url');
/** The Standard Webhooks secret format. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export const isWellFormedApiKey = (key: string): boolean => API_KEY_RE.test(key);
export const isWellFormedSiteKey = (key: string): boolean => SITE_KEY_RE.test(key);
