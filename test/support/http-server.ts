import type { Server } from 'node:http';

/** Stops a test's listening server, keep-alive sockets included (a browser or fetch client may hold one). */
export async function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.closeAllConnections();
  await closed;
}
