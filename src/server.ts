import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app.js';
import { validationFailed, type FieldProblem } from './errors.js';
import { OVERLOADED } from './load-shedding.js';

/**
 * A Host header as RFC 9110 §7.2 allows it: a host name or IPv4 address, or an IPv6 address in brackets, and an
 * optional port. Narrower than RFC 3986's reg-name on purpose: what a client can name a server by.
 */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

const NOT_A_TARGET: FieldProblem = { field: '(request-target)', message: 'must be a path, or an absolute http(s) URL' };

/**
 * The Request's URL is `http://` + Host + request-target (@whatwg-node/server), and routing reads its path. So the
 * Host header must be a host: `Host: a b` made the URL unparseable (a 500), and `Host: x/v1/forms?` put its own path
 * in front of the real one (`GET /healthz` routed to /v1/forms). RFC 9112 §3.2 answers such a Host with 400. A
 * request-target in absolute form (RFC 9112 §3.2.2: a server must accept it) names the host itself and is reduced
 * to its path and query; anything else that is not a path (`*`, say) is a 400 too.
 */
/** How many Host lines a request's raw headers (name, value, name, value, …) carry. */
function hostLines(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count += 1;
  return count;
}

function badRequestTarget(request: IncomingMessage): FieldProblem | null {
  const target = request.url ?? '';
  if (/^https?:\/\//i.test(target)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return NOT_A_TARGET;
    }
    request.url = url.pathname + url.search;
    request.headers.host = url.host;
    return null;
  }
  if (!target.startsWith('/')) return NOT_A_TARGET;
  // RFC 9112 §3.2: exactly one Host in HTTP/1.1 (HTTP/1.0 may omit it). Node keeps only the first of several in
  // `headers`, and answers a missing one with a bare 400 unless asked not to (requireHostHeader: false, below).
  // Counted on the raw lines: `headersDistinct` would build an array for every header of every request.
  if (hostLines(request.rawHeaders) > 1) return { field: 'Host', message: 'must be sent once' };
  const host = request.headers.host;
  if (host === undefined) return request.httpVersion === '1.0' ? null : { field: 'Host', message: 'is required in HTTP/1.1' };
  if (!HOST.test(host)) return { field: 'Host', message: 'must be a host name or address, with an optional port' };
  return null;
}

const REQUEST_LINE: FieldProblem = { field: '(request-line)', message: 'must be METHOD SP request-target SP HTTP/1.x' };
const HEADERS: FieldProblem = { field: '(headers)', message: 'each header must be a token name, a colon and a value of visible characters' };
const FRAMING: FieldProblem = { field: '(framing)', message: 'Content-Length must be one decimal number, and not sent with Transfer-Encoding' };

/** What Node's (llhttp's) error codes mean to a client, in words that quote nothing it sent, and their statuses. */
const PARSE_PROBLEMS: Readonly<Record<string, { status: number; problem: FieldProblem }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, problem: { field: '(headers)', message: `the request line and headers must total at most ${maxHeaderSize} bytes` } },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, problem: { field: '(body)', message: 'chunk extensions are too large' } },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, problem: { field: '(request)', message: 'the request did not arrive in time' } },
  HPE_INVALID_METHOD: { status: 400, problem: REQUEST_LINE },
  HPE_INVALID_URL: { status: 400, problem: REQUEST_LINE },
  HPE_INVALID_VERSION: { status: 400, problem: REQUEST_LINE },
  HPE_INVALID_HEADER_TOKEN: { status: 400, problem: HEADERS },
  HPE_LF_EXPECTED: { status: 400, problem: HEADERS },
  HPE_CR_EXPECTED: { status: 400, problem: HEADERS },
  HPE_INVALID_CONTENT_LENGTH: { status: 400, problem: FRAMING },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, problem: FRAMING },
  HPE_INVALID_TRANSFER_ENCODING: { status: 400, problem: FRAMING },
  HPE_INVALID_CHUNK_SIZE: { status: 400, problem: { field: '(body)', message: 'the chunked body is malformed' } },
};
const NOT_HTTP = { status: 400, problem: { field: '(request)', message: 'is not valid HTTP/1.1' } };

/**
 * A request Node's parser refuses never reaches the app, and Node's own answer is a status line with no body. The
 * same statuses (RFC 9110: 431 for headers too large, 413, 408, else 400), with the v1 envelope, so that a client
 * reads `validation_failed` and which part was wrong, as for every other input problem. As Node does: only when no
 * response has begun on the connection, which then closes (the parser cannot resync after an error).
 */
function answerClientError(error: Error & { code?: string }, socket: Socket & { _httpMessage?: ServerResponse | null }): void {
  if (error.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent) {
    const { status, problem } = (error.code !== undefined && Object.hasOwn(PARSE_PROBLEMS, error.code) && PARSE_PROBLEMS[error.code]) || NOT_HTTP;
    const body = JSON.stringify(validationFailed([problem]).toBody());
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The app's own 503 `overloaded` answer, written as bytes ready in advance (load-shedding.ts). */
const OVERLOADED_BODY = JSON.stringify(OVERLOADED.toBody());
const OVERLOADED_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(OVERLOADED_BODY), ...OVERLOADED.headers };

/** Refusals written together once this many wait (a bound on what the first one waits), else at the loop's turn. */
const REFUSAL_BATCH = 16;

/**
 * The 503 `overloaded` answers, written in batches: at the end of the event loop's I/O phase (setImmediate), or as
 * soon as REFUSAL_BATCH wait. Most of a refusal's cost is the kernel's loopback send waking the client's process on
 * the other core, once per answer written alone; written back to back, a batch wakes it about once. Bench stage
 * overload, interleaved runs on one machine: gateway CPU per refusal 10-38 µs one by one, 16-29 µs batched, and the
 * 503 p99 35-53 ms against 35-40 ms (a steadier tail; goodput within the runs' spread).
 */
class RefusalBatch {
  private readonly pending: ServerResponse[] = [];

  add(response: ServerResponse): void {
    const count = this.pending.push(response);
    if (count === 1) setImmediate(() => this.flush());
    else if (count >= REFUSAL_BATCH) this.flush();
  }

  private flush(): void {
    for (const response of this.pending.splice(0)) {
      response.writeHead(503, OVERLOADED_HEADERS);
      response.end(OVERLOADED_BODY);
    }
  }
}

/**
 * node:http around the app's fetch handler; only the request line and Host are checked here, and load is shed here
 * when the app is full (before a Request or a context exists: refusing must cost far less than serving), everything
 * else is the app's.
 */
export function createHttpServer(app: App): Server {
  const adapter = createServerAdapter<{ res: ServerResponse }>((request, { res }) =>
    app.fetch(request, {
      cutMidAnswer: (listener) => res.once('close', () => res.writableFinished || listener()),
    }),
  );
  const refusals = new RefusalBatch();
  const server = createServer({ requireHostHeader: false }, (request: IncomingMessage, response: ServerResponse) => {
    const problem = badRequestTarget(request);
    if (problem === null && app.refusesAtDoor(request.method ?? 'OTHER', request.url ?? '/')) return refusals.add(response);
    if (problem === null) return void adapter(request, response);
    const body = JSON.stringify(validationFailed([problem]).toBody());
    response.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  });
  server.on('clientError', answerClientError);
  return server;
}
