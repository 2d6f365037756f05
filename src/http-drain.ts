import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Connection bookkeeping for a graceful stop. Node's own `server.close()` + `closeIdleConnections()` destroys a
 * keep-alive socket the instant it is idle, which races a client that is writing its next request on it (the
 * client sees a reset, not a refusal), and it also counts a just-accepted socket whose request has not been parsed
 * yet as idle. Here, once draining: every response says `Connection: close` (the client stops reusing the socket),
 * and a socket without a request under way is closed only after it has been idle for `idleGraceMs`.
 */

interface Tracked {
  active: number;
  idleSince: number;
}

export interface HttpDrain {
  /** From now on responses close their connection (called when readiness turns false). */
  startDraining(): void;
  /**
   * Stops accepting connections, then waits until every connection has ended, closing idle ones, until
   * `deadline` (epoch ms). Resolves with how many connections had to be cut at the deadline (0: all drained).
   */
  close(deadline: number): Promise<number>;
  /** Requests under way (for logs and tests). */
  readonly inFlight: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function trackConnections(server: Server, options: { idleGraceMs?: number } = {}): HttpDrain {
  const idleGraceMs = options.idleGraceMs ?? 500;
  const sockets = new Map<Socket, Tracked>();
  let draining = false;
  let inFlight = 0;

  server.on('connection', (socket: Socket) => {
    sockets.set(socket, { active: 0, idleSince: Date.now() });
    socket.once('close', () => sockets.delete(socket));
  });
  const pending = new Set<ServerResponse>();
  // Runs after the app's listener has started (createServer added it first) but before anything in the app
  // awaited, so the header is in place before the response is written.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const tracked = sockets.get(request.socket);
    if (tracked) tracked.active += 1;
    inFlight += 1;
    pending.add(response);
    // headersSent: an answer written at once (src/server.ts refusing a malformed request line) is already out.
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      inFlight -= 1;
      pending.delete(response);
      if (tracked) {
        tracked.active -= 1;
        tracked.idleSince = Date.now();
      }
    };
    response.once('finish', done);
    response.once('close', done);
  });

  return {
    get inFlight() {
      return inFlight;
    },
    startDraining() {
      draining = true;
      // Responses already under way but not yet started also close their connection.
      for (const response of pending) if (!response.headersSent) response.setHeader('connection', 'close');
    },
    async close(deadline) {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (;;) {
        const now = Date.now();
        for (const [socket, tracked] of sockets) {
          if (tracked.active === 0 && now - tracked.idleSince >= idleGraceMs) socket.destroy();
        }
        if (sockets.size === 0) break;
        if (now >= deadline) {
          const cut = sockets.size;
          for (const socket of sockets.keys()) socket.destroy();
          await closed;
          return cut;
        }
        await sleep(Math.min(50, Math.max(1, deadline - now)));
      }
      await closed;
      return 0;
    },
  };
}
