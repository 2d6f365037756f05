import type { Config } from '../config.js';
import { PhiCipher } from './phi-crypto.js';
import { createEmailMatcher, KeyHasher, type EmailMatcher } from './secrets.js';

type Secrets = Pick<Config, 'secretKey' | 'previousSecretKeys'>;

/**
 * The one place a process turns its configured secrets into a cipher and a hasher, so that every server, worker and
 * CLI run honours SECRET_KEY_PREVIOUS alike: a process built without it would fail on rows of the old key mid-rotation.
 */
export const createPhiCipher = (config: Secrets): PhiCipher => new PhiCipher(config.secretKey, config.previousSecretKeys);
export const createKeyHasher = (config: Secrets): KeyHasher => new KeyHasher(config.secretKey, config.previousSecretKeys);
export const createErasureEmailMatcher = (config: Secrets): EmailMatcher => createEmailMatcher(config.secretKey, config.previousSecretKeys);
