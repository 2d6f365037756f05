import type { Server } from 'node:http';
import { connect } from 'node:net';
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

/** Sends `head` (CRLF line ends added, `Connection: close` for HTTP/1.1) and resolves with the status and JSON body. */
function send(requestLine: string, headers: string[]): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += data.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      resolve({ status, body: body ? JSON.parse(body) : null });
    });
    const closing = requestLine.endsWith('HTTP/1.1') ? ['Connection: close'] : [];
    socket.write([requestLine, ...headers, ...closing, '', ''].join('\r\n'));
  });
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

  // Last: the server stays draining. The drain marks every response `Connection: close`; this one is already sent.
  it('answers it while the server drains, and goes on serving', async () => {
    drain.startDraining();
    expect(await send('GET /healthz HTTP/1.1', ['Host: a b'])).toStrictEqual({ status: 400, body: invalid('Host') });
    expect(await send('GET /healthz HTTP/1.1', ['Host: localhost'])).toStrictEqual({ status: 200, body: { status: 'ok' } });
  });
});
