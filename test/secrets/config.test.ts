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

describe('DELIVERY_CONCURRENCY and DELIVERY_PER_ENDPOINT', () => {
  it('default to 200 deliveries at once per worker, 25 of them to one endpoint', () => {
    expect(loadConfig(base)).toMatchObject({ deliveryConcurrency: 200, deliveryPerEndpoint: 25 });
    expect(loadConfig({ ...base, DELIVERY_CONCURRENCY: '40', DELIVERY_PER_ENDPOINT: '5' })).toMatchObject({ deliveryConcurrency: 40, deliveryPerEndpoint: 5 });
  });

  it('refuse a value that is not a positive whole number, and more per endpoint than in all', () => {
    for (const value of ['0', '-1', '2.5', 'many']) expect(() => loadConfig({ ...base, DELIVERY_CONCURRENCY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DELIVERY_CONCURRENCY: '10' })).toThrow(new ConfigError('DELIVERY_PER_ENDPOINT (25) must not exceed DELIVERY_CONCURRENCY (10)'));
  });
});
