import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app.js';
import { validationFailed, type FieldProblem } from './errors.js';

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
  const host = request.headers.host;
  // HTTP/1.0 may omit it (Node answers an HTTP/1.1 request without one 400 itself).
  if (host !== undefined && !HOST.test(host)) return { field: 'Host', message: 'must be a host name or address, with an optional port' };
  return null;
}

/** node:http around the app's fetch handler; only the request line and Host are checked here, everything else is the app's. */
export function createHttpServer(app: App): Server {
  const adapter = createServerAdapter((request: Request) => app.fetch(request));
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const problem = badRequestTarget(request);
    if (problem === null) return void adapter(request, response);
    const body = JSON.stringify(validationFailed([problem]).toBody());
    response.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  });
}
