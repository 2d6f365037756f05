import { createServer, type Server } from 'node:http';
import { metricsAnswer } from '../infra/metrics.js';

/**
 * A worker's `/metrics` (decisions §7.5): the gateway's answer, on a listener of its own (WORKER_METRICS_PORT), since a
 * worker serves nothing else. Any other path is a 404.
 */
export async function serveWorkerMetrics(options: { host: string; port: number; token: string | null }): Promise<Server> {
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://worker');
    const answering = pathname === '/metrics' && (request.method === 'GET' || request.method === 'HEAD');
    void metricsAnswer(request.headers.authorization ?? null, answering ? options.token : null).then((answer) => {
      response.writeHead(answer.status, answer.headers);
      response.end(request.method === 'HEAD' ? undefined : answer.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return server;
}
