import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/**
 * A local HTTPS server on 127.0.0.1 standing in for customers' sites (verification probes) and webhook
 * receivers. Its certificate is signed by a CA made here, per test process, so the outbound fetcher is
 * exercised with real TLS and trusts it only through `OUTBOUND_TEST_CA`. Nothing leaves the machine.
 *
 *   const server = await startHttpsServer({ hostnames: ['example.test', 'www.example.test'] });
 *   const config = { ...baseConfig, outboundTestResolve: server.resolveFor('example.test', 'www.example.test'),
 *                    outboundTestCa: server.caFile };
 *   server.handle('/wp-admin/admin-ajax.php', { status: 200, body: token });
 */

export interface ScriptedResponse {
  /** Default 200, or 302 when `redirect` is set. */
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sets `Location` (absolute or relative). */
  redirect?: string;
  /** Wait this long before sending the status line. */
  delayMs?: number;
  /** Stream this many bytes of `x` as the body (instead of `body`), in 16 KB chunks, without Content-Length. */
  bodyBytes?: number;
  /** Destroy the socket instead of answering. */
  hangUp?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** The Host header without its port. */
  host: string;
  /** Path and query exactly as received, e.g. `/?rest_route=/service/v1/verify&_=123`. */
  path: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: Date;
}

export type Handler = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>);

export interface TestHttpsServer {
  port: number;
  /** A PEM file of the CA that signed the server certificate (for `OUTBOUND_TEST_CA`). */
  caFile: string;
  caPem: string;
  hostnames: string[];
  /** Every request received since start or the last `reset()`, in arrival order. */
  requests: RecordedRequest[];
  /** Scripts the answer for a pathname (query ignored), optionally only for one Host. Later calls replace. */
  handle(pathname: string, handler: Handler, options?: { host?: string }): void;
  /** `host:127.0.0.1:port,…` for `OUTBOUND_TEST_RESOLVE` (contract §5 order), all hostnames by default. */
  resolveFor(...hostnames: string[]): string;
  /** Resolves once at least `count` requests were recorded (or rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Forgets routes and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_TEST_HOSTNAMES = [
  'example.test',
  'www.example.test',
  'other.test',
  'www.other.test',
  'hooks.example.test',
  'receiver.test',
];

interface CertificateAuthority {
  key: string;
  cert: string;
  file: string;
}

let caPromise: Promise<CertificateAuthority> | null = null;

/** One CA per test process: key generation is the slow part, and trust is per fetcher anyway. */
function testCertificateAuthority(): Promise<CertificateAuthority> {
  caPromise ??= (async () => {
    const notBeforeDate = new Date(Date.now() - 60 * 60 * 1000);
    const ca = await generate([{ name: 'commonName', value: 'widgets-gateway test CA' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    });
    const dir = mkdtempSync(join(tmpdir(), 'wg-test-ca-'));
    const file = join(dir, 'ca.pem');
    writeFileSync(file, ca.cert);
    return { key: ca.private, cert: ca.cert, file };
  })();
  return caPromise;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function respond(response: ServerResponse, scripted: ScriptedResponse): Promise<void> {
  if (scripted.delayMs) await sleep(scripted.delayMs);
  if (response.destroyed) return;
  if (scripted.hangUp) {
    response.socket?.destroy();
    return;
  }
  const headers: Record<string, string> = { ...scripted.headers };
  if (scripted.redirect !== undefined) headers.location = scripted.redirect;
  response.writeHead(scripted.status ?? (scripted.redirect !== undefined ? 302 : 200), headers);
  if (scripted.bodyBytes !== undefined) {
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let left = scripted.bodyBytes;
    while (left > 0 && !response.destroyed) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= part.length;
      if (!response.write(part)) await new Promise<void>((resolve) => response.once('drain', resolve).once('close', resolve));
    }
    response.end();
    return;
  }
  response.end(scripted.body ?? '');
}

export async function startHttpsServer(options: { hostnames?: string[] } = {}): Promise<TestHttpsServer> {
  const hostnames = options.hostnames ?? DEFAULT_TEST_HOSTNAMES;
  const ca = await testCertificateAuthority();
  const leaf = await generate([{ name: 'commonName', value: hostnames[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 60 * 60 * 1000),
    notAfterDate: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: hostnames.map((value) => ({ type: 2 as const, value })) },
    ],
  });

  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server: Server = createServer({ key: leaf.private, cert: leaf.cert }, (request, response) => {
    void (async () => {
      const body = await readBody(request);
      const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      const url = new URL(request.url ?? '/', 'https://placeholder.invalid');
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        host,
        path: request.url ?? '/',
        pathname: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
        receivedAt: new Date(),
      };
      requests.push(recorded);
      for (const wake of waiters) wake();
      const handler = routes.get(`${host} ${url.pathname}`) ?? routes.get(`* ${url.pathname}`);
      const scripted = handler === undefined ? { status: 404, body: 'not found' } : typeof handler === 'function' ? await handler(recorded) : handler;
      await respond(response, scripted);
    })().catch(() => {
      if (!response.headersSent && !response.destroyed) response.writeHead(500).end('test handler failed');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A client aborting mid-handshake (timeouts, refused certificates) is expected here.
  server.on('tlsClientError', () => undefined);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    caFile: ca.file,
    caPem: ca.cert,
    hostnames,
    requests,
    handle(pathname, handler, handleOptions = {}) {
      routes.set(`${handleOptions.host?.toLowerCase() ?? '*'} ${pathname}`, handler);
    },
    resolveFor(...names) {
      return (names.length > 0 ? names : hostnames).map((name) => `${name}:127.0.0.1:${port}`).join(',');
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          if (requests.length < count) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(requests.slice());
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`expected ${count} requests, received ${requests.length}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    reset() {
      routes.clear();
      requests.length = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
