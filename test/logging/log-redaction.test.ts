import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, logger, LOGGED_OBJECTS, REDACTED_FIELDS } from '../../src/infra/log.js';
import { startWorker, type RunningWorker } from '../../src/worker/start-worker.js';
import type { EmailSender } from '../../src/worker/jobs/email.job.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { accountFixture, formFixture, seedAccount, siteFixture } from '../support/seed.js';
import { waitFor } from '../webhooks/support.js';

/* Hidden values (keys, tokens, secrets, emails, form data, webhook and download URLs) never reach a log line. */

describe('the logger', () => {
  it('writes "[redacted]" for every listed field, at the top of a line and inside every logged object, one level down too', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (line: string) => void lines.push(line) }, 'trace');
    const values: string[] = [];
    const secrets = (tag: string): Record<string, string> =>
      Object.fromEntries(
        REDACTED_FIELDS.map((field) => {
          const value = `hidden-${tag}-${field}`;
          values.push(value);
          return [field, value];
        }),
      );
    const top = secrets('top');
    // `url` alone is the server's own address in the "listening" line; everywhere else it is redacted.
    delete top.url;
    values.splice(values.indexOf('hidden-top-url'), 1);
    const nested = Object.fromEntries(LOGGED_OBJECTS.map((object) => [object, { ...secrets(object), child: secrets(`${object}-child`), requestId: `kept-${object}` }]));
    log.info({ ...top, ...nested, requestId: 'kept-top' }, 'message');

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, Record<string, unknown>>;
    for (const value of values) expect(lines[0]).not.toContain(value);
    expect(line.requestId).toBe('kept-top');
    expect(line.apiKey).toBe('[redacted]');
    for (const object of LOGGED_OBJECTS) {
      expect(line[object]!.requestId).toBe(`kept-${object}`);
      expect(line[object]!.formData).toBe('[redacted]');
      expect((line[object]!.child as Record<string, unknown>).email).toBe('[redacted]');
    }
    expect(lines[0]!.match(/\[redacted\]/g)).toHaveLength(values.length);
  });

  it('writes level names and ISO times, and nothing below its level', () => {
    const lines: string[] = [];
    const log = createLogger({ write: (line: string) => void lines.push(line) }, 'warn');
    log.info({ requestId: 'r1' }, 'not written');
    log.warn({ requestId: 'r2' }, 'written');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toStrictEqual([{ level: 'warn', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), requestId: 'r2', msg: 'written' }]);
  });
});

describe('the log of real requests and jobs carrying hidden values', () => {
  const EMAIL = 'ada.lovelace@private.example';
  const OWNER_EMAIL = 'owner.secret@acme.example';
  const FORM_HOOK = 'https://hooks.example/form-hook-7f3a9c';
  const SUBSCRIPTION_HOOK = 'https://hooks.example/subscription-hook-0b41d2';
  const FIELD_VALUE = 'my-diagnosis-is-private';
  let t: TestApp;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_REQUESTS: 'true' } });
  });
  afterAll(async () => {
    await worker?.stop({ timeoutMs: 2_000 });
    await t.close();
  });

  it('has request lines, headers, errors and failed-job lines, and none of the values', async () => {
    const account = await seedAccount(t.db, accountFixture({
      ownerEmail: OWNER_EMAIL,
      sites: [siteFixture({ forms: [formFixture({ webhookUrl: FORM_HOOK })] })],
    }));
    const key = account.apiKeys.full!.key;
    const siteKey = account.sites.main!.siteKey;
    const formId = account.forms.contact!.id;
    // The mail server refuses every recipient and, as SMTP servers do, names them in its answer.
    const emailSender: EmailSender = {
      async send(email) {
        throw new Error(`550 5.1.1 <${String(email.to)}>: Recipient address rejected`);
      },
      close() {},
    };

    const chunks: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      chunks.push(String(chunk));
      return true;
    });
    const level = logger.level;
    logger.level = 'debug';
    let webhookSecret = '';
    try {
      worker = await startWorker({ config: t.deps.config, db: t.db, queue: t.queue, emailSender, pollingIntervalSeconds: 0.5 });
      expect((await t.request('GET', '/v1/forms', { key })).status).toBe(200);
      // A client's credentials under other headers (a proxy's, an API gateway's): no debug line carries them either.
      const elsewhere = { 'proxy-authorization': `Bearer ${key}`, 'x-api-key': key, 'x-auth-token': siteKey };
      expect((await t.request('GET', '/v1/site-catalog', { siteKey, headers: elsewhere })).status).toBe(200);
      const ingested = await t.request('POST', `/v1/forms/${formId}/submissions`, { key, body: { formData: { name: FIELD_VALUE, email: EMAIL } } });
      expect(ingested.status).toBe(201);
      const subscribed = await t.request('POST', '/v1/webhooks', { key, body: { url: SUBSCRIPTION_HOOK, event: 'submission.created' } });
      expect(subscribed.status).toBe(201);
      webhookSecret = subscribed.body.secret as string;
      const created = await t.graphql(
        'mutation ($input: CreateFormInput!) { createForm(input: $input) { id } }',
        { input: { name: 'Hooked', fields: [{ type: 'email', label: 'Email' }], domainId: account.sites.main!.id, webhookUrl: FORM_HOOK } },
        key,
      );
      expect(created.body.errors).toBeUndefined();
      // An unexpected failure whose message quotes customer data below its first line (as Prisma's do).
      const sql = vi.spyOn(t.db, 'sql');
      sql.mockImplementationOnce(t.db.sql.bind(t.db));
      sql.mockRejectedValueOnce(new Error(`query failed\nargs: ${EMAIL} ${FIELD_VALUE}`));
      expect((await t.request('GET', '/v1/forms', { key })).status).toBe(500);
      sql.mockRestore();
      // Both emails of the ingest (the confirmation to EMAIL, the notification to the owner) fail: their one job fails.
      await waitFor(async () => (chunks.filter((chunk) => chunk.includes('"msg":"job failed"')).length >= 1 ? true : null), 20_000, 'the failed email job');
    } finally {
      logger.level = level;
      write.mockRestore();
    }

    const lines = chunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    // Not an empty log: each kind of line is there, with the redaction marks where the values were.
    const requests = lines.filter((line) => line.method !== undefined);
    expect(requests.map((line) => [line.method, line.route, line.status])).toEqual(
      expect.arrayContaining([
        ['GET', 'GET /v1/forms', 200],
        ['GET', 'GET /v1/site-catalog', 200],
        ['POST', 'POST /v1/forms/{id}/submissions', 201],
        ['POST', 'POST /v1/webhooks', 201],
        ['POST', 'POST /graphql', 200],
        ['GET', 'GET /v1/forms', 500],
      ]),
    );
    expect(requests.find((line) => line.route === 'GET /v1/forms')?.headers).toMatchObject({ authorization: '[redacted]' });
    expect(requests.find((line) => line.route === 'GET /v1/site-catalog')?.headers).toMatchObject({
      'x-service-site-key': '[redacted]',
      'proxy-authorization': '[redacted]',
      'x-api-key': '[redacted]',
      'x-auth-token': '[redacted]',
    });
    expect(lines.filter((line) => line.level === 'error')).toEqual([expect.objectContaining({ error: { name: 'Error', message: 'query failed' } })]);
    expect(lines.filter((line) => line.msg === 'job failed')).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 'warn', queue: 'email.send', error: { name: 'Error' } })]),
    );

    const log = chunks.join('');
    for (const hidden of [key, siteKey, webhookSecret, EMAIL, OWNER_EMAIL, FORM_HOOK, SUBSCRIPTION_HOOK, FIELD_VALUE, 'hooks.example']) {
      expect(hidden).not.toBe('');
      expect(log).not.toContain(hidden);
    }
  });
});
