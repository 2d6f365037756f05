import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount } from '../support/seed.js';

/**
 * Over real HTTP: a request body is JSON text, which is UTF-8 (RFC 8259 §8.1). Bytes that are not UTF-8 are refused
 * on v1 and /graphql alike, where they used to be decoded with U+FFFD in their place and stored; a compressed body is
 * refused, never inflated; a malformed /graphql body answers v1's `invalid_json`, not Yoga's BAD_REQUEST quoting the
 * body back. A leading byte order mark is dropped, with and without a Content-Length.
 */

let t: TestApp;
let server: Server;
let base: string;
let key: string;
let formId: number;

beforeAll(async () => {
  t = await createTestApp();
  const account = await seedAccount(t.db);
  key = account.apiKeys.full!.key;
  formId = account.forms.contact!.id;
  ({ server, baseUrl: base } = await serveOnLoopback(t.app));
});
afterAll(async () => {
  await closeHttpServer(server);
  await t.close();
});

const NOT_UTF8 = { error: 'The request body is not valid JSON: it is not UTF-8', code: 'invalid_json' };
const COMPRESSED = { error: 'The request body is not valid JSON: send it without a Content-Encoding', code: 'invalid_json' };

/** `{"formData":{"name":"caf<é>"}}` with é as one Latin-1 byte (0xE9), which is no UTF-8. */
const latin1Body = (): Uint8Array => Uint8Array.from(Buffer.from('{"formData":{"name":"caf\u00e9"}}', 'latin1'));

/** The bytes as a stream: no Content-Length, sent chunked. */
const chunked = (bytes: Uint8Array): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

function post(path: string, body: string | Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: body as BodyInit,
    ...(body instanceof ReadableStream && { duplex: 'half' }),
  } as RequestInit);
}

const submissions = (): Promise<number> => t.db.prisma.submission.count();

describe('v1 request bodies', () => {
  it('refuses bytes that are not UTF-8, with or without a Content-Length or a charset, storing nothing', async () => {
    const before = await submissions();
    for (const [label, body, headers] of [
      ['declared length', latin1Body(), {}],
      ['chunked', chunked(latin1Body()), {}],
      ['charset=iso-8859-1', latin1Body(), { 'content-type': 'application/json; charset=iso-8859-1' }],
    ] as const) {
      const res = await post(`/v1/forms/${formId}/submissions`, body, headers);
      expect(res.status, label).toBe(400);
      expect(await res.json(), label).toStrictEqual(NOT_UTF8);
    }
    const patch = await fetch(`${base}/v1/forms/${formId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: Uint8Array.from(Buffer.from('{"name":"R\u00e9sum\u00e9"}', 'latin1')) as unknown as BodyInit,
    });
    expect(patch.status).toBe(400);
    expect(await patch.json()).toStrictEqual(NOT_UTF8);
    expect(await submissions()).toBe(before);
    expect((await t.db.prisma.form.findUniqueOrThrow({ where: { id: formId } })).name).not.toContain('\ufffd');
  });

  it('stores UTF-8 exactly, a leading byte order mark dropped', async () => {
    const text = '\ufeff{"formData":{"name":"caf\u00e9 \u{1F600}"}}';
    for (const body of [text, chunked(new TextEncoder().encode(text))]) {
      const res = await post(`/v1/forms/${formId}/submissions`, body);
      expect(res.status).toBe(201);
      expect(((await res.json()) as { formData: unknown }).formData).toStrictEqual({ name: 'caf\u00e9 \u{1F600}' });
    }
  });

  it('refuses a compressed body without inflating it', async () => {
    const before = await submissions();
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"formData":{"name":"'), Buffer.alloc(20_000_000, 97), Buffer.from('"}}')]));
    for (const encoding of ['gzip', 'br', 'GZIP']) {
      const res = await post(`/v1/forms/${formId}/submissions`, Uint8Array.from(bomb), { 'content-encoding': encoding });
      expect(res.status, encoding).toBe(400);
      expect(await res.json(), encoding).toStrictEqual(COMPRESSED);
    }
    const identity = await post(`/v1/forms/${formId}/submissions`, '{"formData":{"name":"plain"}}', { 'content-encoding': 'identity' });
    expect(identity.status).toBe(201);
    expect(await submissions()).toBe(before + 1);
  });
});

describe('/graphql request bodies', () => {
  const graphqlError = (message: string) => ({ errors: [{ message, extensions: { code: 'invalid_json' } }] });

  it("answers a malformed body with v1's invalid_json, quoting nothing of it, for either accepted media type", async () => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await post('/graphql', '{"query":"{ __typename }","variables":{"token":whsec_do_not_echo}}', { accept });
      expect(res.status, accept).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text), accept).toStrictEqual(graphqlError('The request body is not valid JSON'));
      expect(text).not.toContain('whsec_do_not_echo');
    }
  });

  it('refuses bytes that are not UTF-8 and compressed bodies, as v1 does', async () => {
    const variables = Buffer.concat([Buffer.from('{"query":"query($v: String) { __typename }","variables":{"v":"caf'), Buffer.from([0xe9]), Buffer.from('"}}')]);
    for (const body of [Uint8Array.from(variables), chunked(Uint8Array.from(variables))]) {
      const res = await post('/graphql', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toStrictEqual(graphqlError(NOT_UTF8.error));
    }
    const gzipped = await post('/graphql', Uint8Array.from(gzipSync('{"query":"{ __typename }"}')), { 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(400);
    expect(await gzipped.json()).toStrictEqual(graphqlError(COMPRESSED.error));
  });

  it('answers a UTF-8 body, a byte order mark dropped', async () => {
    const res = await post('/graphql', '\ufeff{"query":"{ __typename }"}');
    expect(res.status).toBe(200);
    // extensions.cost: decisions §7.1 (a document of __typename alone costs nothing).
    expect(await res.json()).toStrictEqual({ data: { __typename: 'Query' }, extensions: { cost: expect.objectContaining({ requested: 0, actual: 0 }) } });
  });
});
