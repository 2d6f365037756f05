import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import { afterEach, describe, expect, it } from 'vitest';
import { streamedResponse } from '../../src/rest/streamed-body.js';

/** The streamed-route body on its own, over a real socket: what happens when the producer fails mid-body. */

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function serve(body: () => AsyncIterable<string>, onError: (error: unknown) => void): Promise<number> {
  server = createServer(createServerAdapter(() => streamedResponse({ status: 200, headers: { 'content-type': 'text/plain' }, body: body() }, {}, onError, { ms: 60_000, onIdle: () => {} })));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('streamedResponse', () => {
  it('a producer that fails after the first byte is reported and the connection is cut: the client sees an aborted body, not an ended one', async () => {
    const failures: unknown[] = [];
    let closed = false;
    const port = await serve(async function* () {
      try {
        yield 'first line\n';
        throw new Error('database went away');
      } finally {
        closed = true;
      }
    }, (error) => failures.push(error));
    const outcome = await new Promise<string>((resolve) => {
      const request = get({ host: '127.0.0.1', port, path: '/' }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(`ended: ${text}`));
        response.on('error', () => resolve(`aborted after: ${text}`));
        response.on('aborted', () => resolve(`aborted after: ${text}`));
      });
      request.on('error', () => resolve('request error'));
    });
    expect(outcome).toBe('aborted after: first line\n');
    expect(failures).toHaveLength(1);
    expect(closed).toBe(true);
  });
});
