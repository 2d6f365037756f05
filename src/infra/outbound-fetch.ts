import { promises as dns } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext, rootCertificates } from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.js';
import { startChildSpan } from './tracing.js';

/**
 * The one way the service reaches a customer's URL (verification probes, webhook deliveries). A customer
 * controls the URL, the DNS answer and every redirect, so each of them could aim our network position at
 * internal services (cloud metadata at 169.254.169.254, databases on RFC 1918 addresses, loopback admin
 * ports). Rules (contract §4 "outbound fetches"):
 * - HTTPS on port 443 only, for the first URL and every redirect;
 * - the hostname is resolved once per hop, EVERY answer must be a public unicast address, and the
 *   connection is made to that checked address (pinned), so a second DNS answer cannot swap it (rebinding);
 * - literal IP URLs get the same check (no lookup happens for them);
 * - at most 3 redirects, only to hosts the caller allows; one total time budget; a capped body.
 * Failures come back as a `reason`, never as an exception, and no URL is ever logged or put in a message.
 * Tests widen this only through `OUTBOUND_TEST_RESOLVE` / `OUTBOUND_TEST_CA` (refused in production by loadConfig).
 */

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
export const MAX_REDIRECTS = 3;
/** Idle keep-alive connections (and their agents) to the receivers seen last: at most this many hosts. */
const MAX_KEPT_AGENTS = 256;
const KEEP_ALIVE_MS = 10_000;
/** TCP and TLS setup; the request's own budget (`timeoutMs`) still bounds the whole fetch. */
const CONNECT_TIMEOUT_MS = 10_000;

export type OutboundFailureReason =
  | 'timeout'
  | 'dns_error'
  | 'tls_error'
  | 'connection_error'
  | 'blocked_address'
  | 'redirect_off_host'
  | 'too_many_redirects'
  | 'body_too_large'
  | `http_${number}`;

export interface OutboundRequest {
  /** Default GET. A 301/302/303 answer to another method is followed with GET and no body. */
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Hosts redirects may go to (case-insensitive). Default: the first URL's host only. */
  allowedHosts?: string[];
  /** 0 to 3 (capped at 3); one more redirect than this gives `too_many_redirects`. */
  maxRedirects?: number;
  /** Total budget for DNS, connect, TLS, redirects and body; default the fetcher's (5 s). */
  timeoutMs?: number;
}

interface OutboundAnswer {
  status: number;
  headers: Record<string, string>;
  /** UTF-8 text of the body, at most the cap (a non-2xx body over the cap is truncated). */
  body: string;
  latencyMs: number;
}

export type OutboundResult =
  | ({ ok: true } & OutboundAnswer)
  /** `status`/`headers`/`body` are set for `http_<status>` failures, null otherwise. */
  | { ok: false; reason: OutboundFailureReason; status: number | null; headers: Record<string, string> | null; body: string | null; latencyMs: number };

export interface OutboundFetcher {
  fetch(url: string, options?: OutboundRequest): Promise<OutboundResult>;
  /** Closes every connection, cutting requests still under way (a stopping worker, past its drain). */
  close?(): Promise<void>;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundFetcherOptions {
  /** Default 5 s (the contract); tests shorten it. */
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** DNS resolution; default `dns.lookup(host, { all: true })`. Tests inject answers here. */
  lookup?: HostLookup;
}

interface Pin {
  address: string;
  port: number;
}

class OutboundFailure extends Error {
  constructor(readonly reason: OutboundFailureReason) {
    super(reason);
  }
}

/**
 * True unless `ip` is a public unicast address. IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) is
 * unwrapped first; NAT64, 6to4, Teredo and documentation ranges are not `unicast` for ipaddr.js and so refused,
 * and the deprecated IPv4-compatible `::a.b.c.d` block (which ipaddr.js calls unicast) is refused explicitly.
 */
export function isBlockedAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return true;
  let address = ipaddr.parse(bare);
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) address = v6.toIPv4Address();
    else if (v6.match(ipaddr.IPv6.parse('::'), 96)) return true;
  }
  return address.range() !== 'unicast';
}

/** `host:ip:port,…` (contract §5: that order; an IPv6 ip may be bracketed). Only loopback targets are accepted. */
export function parseTestResolve(spec: string): Map<string, Pin> {
  const pins = new Map<string, Pin>();
  for (const entry of spec.split(',').map((part) => part.trim()).filter(Boolean)) {
    const first = entry.indexOf(':');
    const last = entry.lastIndexOf(':');
    const host = entry.slice(0, first).toLowerCase();
    const rawIp = entry.slice(first + 1, last);
    const ip = rawIp.startsWith('[') && rawIp.endsWith(']') ? rawIp.slice(1, -1) : rawIp;
    const port = Number(entry.slice(last + 1));
    if (first <= 0 || first === last || !isIP(ip) || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error('OUTBOUND_TEST_RESOLVE entries must be host:ip:port');
    }
    if (ipaddr.parse(ip).range() !== 'loopback') throw new Error('OUTBOUND_TEST_RESOLVE may only point at loopback addresses');
    pins.set(host, { address: ip, port });
  }
  return pins;
}

const normaliseHost = (host: string): string => host.toLowerCase().replace(/\.$/, '');
const bareHost = (hostname: string): string => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

/** undici loads on the first outbound fetch: a gateway that never makes one (most requests) keeps its ~10 MB. */
let undici: Promise<typeof import('undici')> | null = null;
const loadUndici = (): Promise<typeof import('undici')> => (undici ??= import('undici'));

const defaultLookup: HostLookup = async (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Why a URL can never be fetched under the rules above, decided without DNS: not https, another port than 443,
 * credentials, or an IP literal in a refused range. Null when it may be fetched (a hostname is still checked
 * when it is resolved, at fetch time). The one check for every hop here and for webhook URLs at the door
 * (contract §6.5 "webhook URL at creation"); the messages name no part of the URL.
 */
export function targetUrlProblem(raw: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:' || !url.hostname) return 'must be an absolute https URL';
  // `https://host:443/` normalises to port '' too; any other port is refused.
  if (url.port !== '') return 'must use the https port 443';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  const host = bareHost(url.hostname);
  if (isIP(host) && isBlockedAddress(host)) return 'must not be a private, loopback, link-local or otherwise reserved address';
  return null;
}

/** A URL that may be fetched, or null. */
function parseAllowedUrl(raw: string | URL): URL | null {
  if (targetUrlProblem(raw) !== null) return null;
  return new URL(raw);
}

const TLS_CODES = new Set([
  'EPROTO',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'HOSTNAME_MISMATCH',
]);

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

function classifyNetworkError(error: unknown): OutboundFailureReason {
  const codes = errorCodes(error);
  if (codes.some((code) => TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.startsWith('CERT_'))) {
    return 'tls_error';
  }
  if (codes.some((code) => code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT')) {
    return 'timeout';
  }
  return 'connection_error';
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Drops a body we will not read; undici reports the destruction as an error event nobody else listens to. */
function discard(body: { on(event: 'error', listener: () => void): unknown; destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function withDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new OutboundFailure('timeout'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new OutboundFailure('timeout'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function createOutboundFetcher(config: Pick<Config, 'outboundTestResolve' | 'outboundTestCa'>, options: OutboundFetcherOptions = {}): OutboundFetcher {
  const testPins = config.outboundTestResolve ? parseTestResolve(config.outboundTestResolve) : new Map<string, Pin>();
  // Built once and shared: given `ca` instead, every TLS connection parsed its own copy of the 121 root certificates
  // (~9 ms of the event loop to build, more to free): a worker opening its connections to a receiver stalled for up
  // to a second (bench webhooks stage, --cpu-prof). Without a test CA, Node's default context shares its root store.
  const secureContext = config.outboundTestCa
    ? createSecureContext({ ca: [...rootCertificates, readFileSync(config.outboundTestCa, 'utf8')] })
    : undefined;
  const lookup = options.lookup ?? defaultLookup;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  /** Resolves a hop's host once and checks every answer; the connection then goes to the checked address. */
  async function pin(hostname: string, signal: AbortSignal): Promise<Pin> {
    const host = normaliseHost(bareHost(hostname));
    const testPin = testPins.get(host);
    if (testPin) return testPin;
    if (isIP(host)) {
      if (isBlockedAddress(host)) throw new OutboundFailure('blocked_address');
      return { address: host, port: 443 };
    }
    let answers: ResolvedAddress[];
    try {
      answers = await withDeadline(lookup(host), signal);
    } catch (error) {
      if (error instanceof OutboundFailure) throw error;
      throw new OutboundFailure('dns_error');
    }
    const first = answers[0];
    if (!first) throw new OutboundFailure('dns_error');
    // One bad answer is enough to refuse: the client would otherwise be free to pick it.
    if (answers.some((answer) => isBlockedAddress(answer.address))) throw new OutboundFailure('blocked_address');
    return { address: first.address, port: 443 };
  }

  /**
   * Connections are kept alive and reused, and TLS sessions resumed, per (hostname, checked address, port): a
   * connection is only ever reused for the same hostname pinned to the same address, so a fetch whose DNS answer
   * changed gets a connection of its own to the newly checked address (rebinding stays harmless), and a fetch whose
   * answer is refused never reaches here. The least recently used agents are closed beyond MAX_KEPT_AGENTS.
   */
  const dispatchers = new Map<string, import('undici').Agent>();
  let connector: import('undici').buildConnector.connector | null = null;
  async function dispatcherFor(hostname: string, target: Pin): Promise<import('undici').Agent> {
    const key = `${hostname} ${target.address} ${target.port}`;
    const kept = dispatchers.get(key);
    if (kept) {
      dispatchers.delete(key);
      dispatchers.set(key, kept);
      return kept;
    }
    const { Agent, buildConnector } = await loadUndici();
    const connect = (connector ??= buildConnector({ ...(secureContext ? { secureContext } : {}), timeout: CONNECT_TIMEOUT_MS, maxCachedSessions: MAX_KEPT_AGENTS }));
    const agent = new Agent({
      keepAliveTimeout: KEEP_ALIVE_MS,
      connect: (connectOptions, callback) => {
        // This agent serves one pinned hostname; any other would mean a connection without its own check.
        if (normaliseHost(bareHost(connectOptions.hostname)) !== hostname) {
          callback(new OutboundFailure('blocked_address'), null);
          return;
        }
        connect({ ...connectOptions, hostname: target.address, port: String(target.port), ...(isIP(hostname) ? {} : { servername: hostname }) }, callback);
      },
    });
    dispatchers.set(key, agent);
    for (const [oldKey, old] of dispatchers) {
      if (dispatchers.size <= MAX_KEPT_AGENTS) break;
      dispatchers.delete(oldKey);
      void old.close().catch(() => undefined);
    }
    return agent;
  }

  async function readCapped(body: AsyncIterable<Buffer> & Parameters<typeof discard>[0], cap: number, truncate: boolean): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > cap) {
        discard(body);
        if (!truncate) throw new OutboundFailure('body_too_large');
        chunks.push(chunk.subarray(0, chunk.length - (size - cap)));
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /**
   * A client span per fetch while tracing exports (tracing.ts): the method, the final status or the failure's
   * reason. Never the URL or the host: a receiver's address is its owner's secret.
   */
  async function tracedFetch(rawUrl: string, requestOptions: OutboundRequest = {}): Promise<OutboundResult> {
    const method = requestOptions.method ?? 'GET';
    const span = startChildSpan(method, { kind: 'client', attributes: { 'http.request.method': method } });
    const result = await send(rawUrl, requestOptions);
    span?.end({
      attributes: { ...(result.status !== null && { 'http.response.status_code': result.status }), ...(!result.ok && { 'error.type': result.reason }) },
      failed: !result.ok,
    });
    return result;
  }

  async function send(rawUrl: string, requestOptions: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const latency = (): number => Math.round(performance.now() - started);
    const fail = (reason: OutboundFailureReason): OutboundResult => ({ ok: false, reason, status: null, headers: null, body: null, latencyMs: latency() });

    let url = parseAllowedUrl(rawUrl);
    if (!url) return fail('blocked_address');
    const allowed = new Set((requestOptions.allowedHosts ?? [url.hostname]).map((host) => normaliseHost(bareHost(host))));
    const maxRedirects = Math.max(0, Math.min(requestOptions.maxRedirects ?? MAX_REDIRECTS, MAX_REDIRECTS));
    let method = requestOptions.method ?? 'GET';
    let body = requestOptions.body;

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), requestOptions.timeoutMs ?? defaultTimeoutMs);
    const { request } = await loadUndici();

    try {
      for (let redirects = 0; ; redirects++) {
        const hostname = normaliseHost(bareHost(url.hostname));
        const dispatcher = await dispatcherFor(hostname, await pin(hostname, controller.signal));

        let response: Awaited<ReturnType<typeof request>>;
        try {
          response = await request(url, {
            dispatcher,
            method,
            headers: { 'user-agent': 'widgets-gateway/1', ...requestOptions.headers },
            body: method === 'GET' || method === 'HEAD' ? undefined : body,
            signal: controller.signal,
          });
        } catch (error) {
          if (controller.signal.aborted) return fail('timeout');
          const own = error instanceof OutboundFailure ? error : (error as { cause?: unknown }).cause;
          if (own instanceof OutboundFailure) return fail(own.reason);
          return fail(classifyNetworkError(error));
        }

        const { statusCode } = response;
        const headers = flattenHeaders(response.headers);
        const location = headers.location;
        if (statusCode >= 300 && statusCode < 400 && location !== undefined) {
          discard(response.body);
          if (redirects >= maxRedirects) return fail('too_many_redirects');
          const next = parseAllowedUrl(new URL(location, url));
          if (!next || !allowed.has(normaliseHost(bareHost(next.hostname)))) return fail('redirect_off_host');
          if (statusCode === 303 || ((statusCode === 301 || statusCode === 302) && method !== 'GET' && method !== 'HEAD')) {
            method = 'GET';
            body = undefined;
          }
          url = next;
          continue;
        }

        const success = statusCode >= 200 && statusCode < 300;
        const declared = Number(headers['content-length']);
        if (success && Number.isFinite(declared) && declared > maxBodyBytes) {
          discard(response.body);
          return fail('body_too_large');
        }
        let text: string;
        try {
          text = await readCapped(response.body, maxBodyBytes, !success);
        } catch (error) {
          if (error instanceof OutboundFailure) return fail(error.reason);
          if (controller.signal.aborted) return fail('timeout');
          return fail(classifyNetworkError(error));
        }
        if (controller.signal.aborted) return fail('timeout');
        if (!success) return { ok: false, reason: `http_${statusCode}`, status: statusCode, headers, body: text, latencyMs: latency() };
        return { ok: true, status: statusCode, headers, body: text, latencyMs: latency() };
      }
    } catch (error) {
      if (error instanceof OutboundFailure) return fail(error.reason);
      if (controller.signal.aborted) return fail('timeout');
      return fail('connection_error');
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    fetch: tracedFetch,
    async close() {
      const closing = [...dispatchers.values()];
      dispatchers.clear();
      // destroy, not close: a stopping worker has already given up on the requests still under way.
      await Promise.all(closing.map((agent) => agent.destroy().catch(() => undefined)));
    },
  };
}
