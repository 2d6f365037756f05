import { createServer, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app.js';

/** node:http around the app's fetch handler; no logic lives here. */
export function createHttpServer(app: App): Server {
  return createServer(createServerAdapter((request: Request) => app.fetch(request)));
}
