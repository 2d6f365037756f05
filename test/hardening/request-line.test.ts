import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackConnections, type HttpDrain } from '../../src/http-drain.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount } from '../support/seed.js';

/**
 * Over a raw socket, since no HTTP client sends these: the request's URL is built from the Host header and the
 * request-target, and routing reads its path. A Host that is no host was a 500 (`Host: a b`: an unparseable URL) or
 * changed the route (`Host: x/v1/forms?` turned `GET /healthz` into the forms list); both are 400 now, as RFC 9112
 * §3.2 says. A request-target in absolute form, which a server must accept, was routed as a path and answered 404.
 */

let t: TestApp;
let server: Server;
let port: number;
let key: string;
let drain: HttpDrain;

beforeAll(async () => {
  t = await createTestApp();
  key = (await seedAccount(t.db)).apiKeys.full!.key;
  ({ server, port } = await serveOnLoopback(t.app));
  drain = trackConnections(server);
});
afterAll(async () => {
  await closeHttpServer(server);
  await t.close();
});

/** Writes `raw` as it is and resolves with the status line, the headers (lower-cased names) and the body text. */
function sendRaw(raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += data.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3}) /.exec(statusLine)?.[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(raw);
  });
}

/** Sends `head` (CRLF line ends added, `Connection: close` for HTTP/1.1) and resolves with the status and JSON body. */
async function send(requestLine: string, headers: string[]): Promise<{ status: number; body: unknown }> {
  const closing = requestLine.endsWith('HTTP/1.1') ? ['Connection: close'] : [];
  const answer = await sendRaw([requestLine, ...headers, ...closing, '', ''].join('\r\n'));
  return { status: answer.status, body: answer.body ? JSON.parse(answer.body) : null };
}

const auth = (): string => `Authorization: Bearer ${key}`;

const invalid = (field: string) => ({ error: expect.any(String), code: 'validation_failed', fields: [{ field, message: expect.any(String) }] });

describe('the request line and Host', () => {
  it('refuses a Host header that is no host with 400, never a 500', async () => {
    for (const host of ['a b', 'x/v1/forms?', 'x#frag', 'user@x', 'x:port', '']) {
      const answer = await send('GET /healthz HTTP/1.1', [`Host: ${host}`, auth()]);
      expect(answer, JSON.stringify(host)).toStrictEqual({ status: 400, body: invalid('Host') });
    }
  });

  it('refuses an HTTP/1.1 request with no Host, or with two, with the 400 envelope (RFC 9112 §3.2), never serving it', async () => {
    expect(await send('GET /v1/rate_limit HTTP/1.1', [auth()])).toStrictEqual({ status: 400, body: invalid('Host') });
    expect(await send('GET /v1/rate_limit HTTP/1.1', ['Host: a.example', 'Host: b.example', auth()])).toStrictEqual({ status: 400, body: invalid('Host') });
    expect(await send('GET /v1/rate_limit HTTP/1.1', ['Host: a.example', 'Host: a.example', auth()])).toStrictEqual({ status: 400, body: invalid('Host') });
  });

  it('routes on the request-target alone: a Host carrying a path does not reach the route it names', async () => {
    const answer = await send('GET /healthz HTTP/1.1', ['Host: x/v1/forms?', auth()]);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toContain('pagination');
  });

  it('answers hosts as clients send them: names, addresses, IPv6 in brackets, with and without a port', async () => {
    for (const host of ['localhost', 'localhost:4000', 'api.example.com', '127.0.0.1:8080', '[::1]:4000', '[::1]', 'my_host.internal']) {
      const answer = await send('GET /healthz HTTP/1.1', [`Host: ${host}`]);
      expect(answer, host).toStrictEqual({ status: 200, body: { status: 'ok' } });
    }
    // HTTP/1.0 may leave Host out.
    expect(await send('GET /healthz HTTP/1.0', [])).toStrictEqual({ status: 200, body: { status: 'ok' } });
  });

  it('accepts a request-target in absolute form, answering what its path names', async () => {
    const absolute = await send('GET http://api.example:4000/v1/forms?limit=1 HTTP/1.1', ['Host: ignored.example', auth()]);
    const origin = await send('GET /v1/forms?limit=1 HTTP/1.1', ['Host: api.example', auth()]);
    expect(absolute.status).toBe(200);
    expect(absolute.body).toStrictEqual(origin.body);
  });

  it('refuses a request-target that is neither a path nor an absolute http(s) URL', async () => {
    // (Node's parser answers a bare `GET healthz` 400 itself, before any listener.)
    for (const line of ['OPTIONS * HTTP/1.1', 'GET ftp://x/v1/forms HTTP/1.1']) {
      const answer = await send(line, ['Host: x']);
      expect(answer, line).toStrictEqual({ status: 400, body: invalid('(request-target)') });
    }
  });

  describe("what Node's HTTP parser refuses before the app sees it", () => {
    // Node answered these with a bare status line and no body; the statuses stay its own (RFC 9110).
    const cases: [string, string, number, string][] = [
      ['an invalid method', 'G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 400, '(request-line)'],
      ['an unknown HTTP version', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 400, '(request-line)'],
      ['a NUL in the request-target', 'GET /heal\u0000thz HTTP/1.1\r\nHost: x\r\n\r\n', 400, '(request-line)'],
      ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400, '(headers)'],
      ['a control character in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', 400, '(headers)'],
      ['headers over 16 KB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, '(headers)'],
      ['a Content-Length that is no number', 'POST /v1/forms HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, '(framing)'],
      ['Content-Length beside Transfer-Encoding (request smuggling)', 'POST /v1/forms HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, '(framing)'],
      ['a malformed chunk size', 'POST /v1/forms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n', 400, '(body)'],
    ];
    for (const [what, raw, status, field] of cases) {
      it(`answers ${what} with ${status} in the v1 envelope and closes`, async () => {
        const answer = await sendRaw(raw);
        expect(answer.status).toBe(status);
        expect(answer.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', connection: 'close', 'content-length': String(Buffer.byteLength(answer.body)) });
        expect(JSON.parse(answer.body)).toStrictEqual(invalid(field));
      });
    }

    it('answers a request that does not arrive in time (Node raises it after headersTimeout) with 408 in the envelope', async () => {
      // Node checks the timeouts every 30 s at the earliest: its error is raised here on a real connection instead.
      const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
      const received = new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (data) => (text += data.toString('utf8')));
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      });
      server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), await serverSide);
      const [head = '', body = ''] = (await received).split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(JSON.parse(body)).toStrictEqual(invalid('(request)'));
    });

    it('quotes nothing the client sent', async () => {
      const answer = await sendRaw(`GET /healthz HTTP/1.1\r\nHost: x\r\nsecret ${key}: y\r\n\r\n`);
      expect(answer.status).toBe(400);
      expect(answer.body).not.toContain(key);
      expect(answer.body).not.toContain('secret');
    });

    it('answers garbage after a keep-alive response on the same connection, then closes it; the server goes on', async () => {
      const received = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (data) => {
          text += data.toString('utf8');
          // The first answer is whole: now the next "request" on the same connection.
          if (text.endsWith('{"status":"ok"}')) socket.write('G@T / HTTP/1.1\r\n\r\n');
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      const second = received.slice(received.indexOf('{"status":"ok"}') + '{"status":"ok"}'.length);
      expect(second).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(second.split('\r\n\r\n')[1]!)).toStrictEqual(invalid('(request-line)'));
      expect(await send('GET /healthz HTTP/1.1', ['Host: localhost'])).toStrictEqual({ status: 200, body: { status: 'ok' } });
    });
  });

  // Last: the server stays draining. The drain marks every response `Connection: close`; this one is already sent.
  it('answers it while the server drains, and goes on serving', async () => {
    drain.startDraining();
    expect(await send('GET /healthz HTTP/1.1', ['Host: a b'])).toStrictEqual({ status: 400, body: invalid('Host') });
    expect(await send('GET /healthz HTTP/1.1', ['Host: localhost'])).toStrictEqual({ status: 200, body: { status: 'ok' } });
  });
});
