import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/request-body.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount } from '../support/seed.js';

/**
 * Over a real socket: a request body is never buffered past MAX_BODY_BYTES. A declared Content-Length over the cap is
 * answered 413 before the body is sent at all; a chunked body is cut off once it passes the cap, while the client is
 * still sending. Before, v1 read whatever arrived (any key could make the gateway buffer a gigabyte) and
 * /graphql allowed 25 MB. Each case below would wait forever for the rest of its body without the cap.
 */

let t: TestApp;
let server: Server;
let port: number;
let key: string;
let formId: number;

beforeAll(async () => {
  t = await createTestApp();
  const account = await seedAccount(t.db);
  key = account.apiKeys.full!.key;
  formId = account.forms.contact!.id;
  ({ server, port } = await serveOnLoopback(t.app));
});
afterAll(async () => {
  await closeHttpServer(server);
  await t.close();
});

interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Writes the head and `body` (chunked framing when `chunked`), never the end of a chunked body nor the rest of a
 * declared one, then waits for the answer: it can only come from a server that stopped reading early.
 */
function send(path: string, headers: Record<string, string>, body: Buffer, chunked: boolean): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 5 s: the server is waiting for the rest of the body (${received.slice(0, 100)})`));
    }, 5000);
    socket.on('data', (data) => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.slice(0, end);
      const length = /content-length: (\d+)/i.exec(head);
      const rest = received.slice(end + 4);
      if (length && Buffer.byteLength(rest, 'latin1') >= Number(length[1])) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(head.split(' ')[1]), body: rest });
      }
    });
    socket.on('error', () => undefined);
    const lines = [`POST ${path} HTTP/1.1`, 'Host: gateway.test', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
    if (chunked) lines.push('Transfer-Encoding: chunked');
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    // In 64 KB pieces, as a client streaming a large body would.
    for (let offset = 0; offset < body.length; offset += 65_536) {
      const piece = body.subarray(offset, offset + 65_536);
      socket.write(chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
    }
  });
}

const over = Buffer.from(`{"formData":{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}}`);

describe('request bodies over MAX_BODY_BYTES', () => {
  it('answers a v1 ingest whose Content-Length passes the cap with 413 before its body is sent', async () => {
    const res = await send(`/v1/forms/${formId}/submissions`, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': '1000000000' }, Buffer.from('{"formData":'), false);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toStrictEqual({ error: 'The request body is too large', code: 'payload_too_large', cap: MAX_BODY_BYTES, used: 1_000_000_000 });
  });

  it('cuts a chunked v1 body off once it passes the cap, with 413 and the bytes received', async () => {
    const res = await send(`/v1/forms/${formId}/submissions`, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, over, true);
    expect(res.status).toBe(413);
    const body = JSON.parse(res.body);
    expect(body).toStrictEqual({ error: 'The request body is too large', code: 'payload_too_large', cap: MAX_BODY_BYTES, used: expect.any(Number) });
    expect(body.used).toBeGreaterThan(MAX_BODY_BYTES);
    expect(await t.db.prisma.submission.count()).toBe(0);
  });

  it('does the same on /graphql, in the GraphQL error shape', async () => {
    const declared = await send('/graphql', { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': '30000000' }, Buffer.from('{"query":'), false);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toStrictEqual({
      errors: [{ message: 'The request body is too large', extensions: { code: 'payload_too_large', cap: MAX_BODY_BYTES, used: 30_000_000 } }],
    });
    const chunked = await send('/graphql', { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, Buffer.from(`{"query":"{ __typename }","variables":{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}}`), true);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).errors[0].extensions).toMatchObject({ code: 'payload_too_large', cap: MAX_BODY_BYTES });
  });
});

describe('request bodies within MAX_BODY_BYTES', () => {
  /** A complete request, chunked, through fetch (undici sends a stream body chunked). */
  const chunkedPost = (path: string, headers: Record<string, string>, text: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers,
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < text.length; i += 1000) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 1000)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);

  it('reads a chunked body under the cap as before, on v1 and /graphql', async () => {
    const ingest = await chunkedPost(`/v1/forms/${formId}/submissions`, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, JSON.stringify({ formData: { Name: 'Ada', Notes: 'n'.repeat(40_000) } }));
    expect(ingest.status).toBe(201);
    expect((await ingest.json()).formData.Name).toBe('Ada');
    const graphql = await chunkedPost('/graphql', { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, JSON.stringify({ query: '{ forms { pagination { total } } }', variables: { pad: 'p'.repeat(500_000) } }));
    expect(graphql.status).toBe(200);
    expect(await graphql.json()).toStrictEqual({ data: { forms: { pagination: { total: 1 } } }, extensions: { cost: expect.objectContaining({ requested: 1, actual: 1 }) } });
  });

  it('accepts a body of exactly the cap (declared) and refuses one byte more', async () => {
    const pad = (total: number) => `{"formData":{"a":"b"},"x":"${'x'.repeat(total - 29)}"}`;
    expect(Buffer.byteLength(pad(MAX_BODY_BYTES))).toBe(MAX_BODY_BYTES);
    const atCap = await fetch(`http://127.0.0.1:${port}/v1/forms/${formId}/submissions`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: pad(MAX_BODY_BYTES) });
    // Read in full, then refused by the body schema (no field x): the size passed.
    expect((await atCap.json()).code).toBe('validation_failed');
    const overByOne = await fetch(`http://127.0.0.1:${port}/v1/forms/${formId}/submissions`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: pad(MAX_BODY_BYTES + 1) });
    expect(overByOne.status).toBe(413);
    expect((await overByOne.json()).used).toBe(MAX_BODY_BYTES + 1);
  });
});
