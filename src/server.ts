import { createServer, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app.js';

/** node:http around the app's fetch handler; no logic lives here. */
export function createHttpServer(app: App): Server {
  return createServer(createServerAdapter((request: Request) => app.fetch(request)));
}

/** Stops accepting, lets in-flight requests finish, then closes idle keep-alive sockets. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
