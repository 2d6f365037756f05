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

describe('REDIS_URL and SMTP_URL', () => {
  it('take their own schemes with a host, and refuse anything else at start without quoting the value', () => {
    expect(loadConfig({ ...base, REDIS_URL: 'rediss://:secret@cache.internal:6380/2', SMTP_URL: 'smtps://u:p@mail.internal:465' })).toMatchObject({
      redisUrl: 'rediss://:secret@cache.internal:6380/2',
      smtpUrl: 'smtps://u:p@mail.internal:465',
    });
    for (const value of ['garbage', 'http://127.0.0.1:6391', 'redis://127.0.0.1:notaport', 'redis://:secret@']) {
      expect(() => loadConfig({ ...base, REDIS_URL: value }), value).toThrow(new ConfigError('REDIS_URL must be a redis:// or rediss:// URL with a host'));
    }
    for (const value of ['garbage', 'http://x', 'smtp://']) {
      expect(() => loadConfig({ ...base, SMTP_URL: value }), value).toThrow(new ConfigError('SMTP_URL must be a smtp:// or smtps:// URL with a host'));
    }
  });
});

describe('settings whose 0 means off or none', () => {
  it('take 0 and name the range from 0 when refusing', () => {
    expect(loadConfig({ ...base, MAX_QUEUED_REQUESTS: '0', GRAPHQL_ANSWER_CACHE_MB: '0' })).toMatchObject({ maxQueuedRequests: 0, graphqlAnswerCacheBytes: 0 });
    for (const name of ['MAX_QUEUED_REQUESTS', 'GRAPHQL_ANSWER_CACHE_MB']) {
      expect(() => loadConfig({ ...base, [name]: '-1' })).toThrow(new ConfigError(`${name} must be a whole number from 0 to 999999, got "-1"`));
    }
  });
});
