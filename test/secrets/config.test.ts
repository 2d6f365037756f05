import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const key = (): string => randomBytes(32).toString('base64');
const base = { SECRET_KEY: key(), DATABASE_URL: 'postgresql://127.0.0.1/x' };

describe('SECRET_KEY_PREVIOUS', () => {
  it('is empty when unset or blank, and each comma-separated key decodes in order', () => {
    expect(loadConfig(base).previousSecretKeys).toStrictEqual([]);
    expect(loadConfig({ ...base, SECRET_KEY_PREVIOUS: ' ' }).previousSecretKeys).toStrictEqual([]);
    const [one, two] = [key(), key()];
    expect(loadConfig({ ...base, SECRET_KEY_PREVIOUS: `${one}, ${two}` }).previousSecretKeys).toStrictEqual([Buffer.from(one, 'base64'), Buffer.from(two, 'base64')]);
  });

  it('refuses a short or empty member, naming which', () => {
    expect(() => loadConfig({ ...base, SECRET_KEY_PREVIOUS: randomBytes(16).toString('base64') })).toThrow(
      new ConfigError('SECRET_KEY_PREVIOUS (key 1) must be at least 32 bytes, base64-encoded'),
    );
    expect(() => loadConfig({ ...base, SECRET_KEY_PREVIOUS: `${key()},` })).toThrow('SECRET_KEY_PREVIOUS (key 2)');
  });
});
