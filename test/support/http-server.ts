import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../../src/app.js';
import { createHttpServer } from '../../src/server.js';

interface LoopbackServer {
  server: Server;
  port: number;
  baseUrl: string;
}

/** The app behind node:http as production serves it (src/server.ts), listening on a free loopback port. */
export async function serveOnLoopback(app: App): Promise<LoopbackServer> {
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, baseUrl: `http://127.0.0.1:${port}` };
}

/** Stops a test's listening server, keep-alive sockets included (a browser or fetch client may hold one). */
export async function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.closeAllConnections();
  await closed;
}
