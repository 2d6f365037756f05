import dns from 'node:dns';
import { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOutboundFetcher } from '../../src/infra/outbound-fetch.js';

/** A public unicast address (TEST-NET ranges are refused as reserved, so they cannot stand in here). */
const PUBLIC = '1.1.1.1';

/**
 * A local resolver stub in place of the system's, answering like a rebinding attacker's DNS server: the first
 * question gets a public address, every later one loopback. Both Node resolvers are stubbed, the promise one
 * (the fetcher's check) and the callback one (what a socket would use to resolve a hostname itself), so a
 * connection that resolved the name again, instead of using the checked address, would reach loopback.
 */
function rebindingResolver(): { asked: string[] } {
  const asked: string[] = [];
  const answer = (hostname: string): { address: string; family: number } => {
    asked.push(hostname);
    return { address: asked.length === 1 ? PUBLIC : '127.0.0.1', family: 4 };
  };
  vi.spyOn(dns.promises, 'lookup').mockImplementation((async (hostname: string) => [answer(hostname)]) as unknown as typeof dns.promises.lookup);
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown, callback?: unknown) => {
    const done = (typeof options === 'function' ? options : callback) as (error: null, address: unknown, family?: number) => void;
    const result = answer(hostname);
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => (all ? done(null, [result]) : done(null, result.address, result.family)));
  }) as unknown as typeof dns.lookup);
  return { asked };
}

/** Every address a TCP client socket of this process tries to reach, as the socket itself reports it. */
function recordConnectionAttempts(): { attempts: string[]; stop(): void } {
  const attempts: string[] = [];
  const connect = Socket.prototype.connect;
  // TLS sockets connect through net.Socket's connect too; the socket emits the address it actually dials.
  const spy = vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (this: Socket, ...args: unknown[]) {
    this.on('connectionAttempt', (address: string, port: number) => attempts.push(`${address}:${port}`));
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  } as typeof Socket.prototype.connect);
  return { attempts, stop: () => spy.mockRestore() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DNS rebinding', () => {
  it('connects to the address it checked, though the name resolves to loopback by then', async () => {
    const resolver = rebindingResolver();
    const recorder = recordConnectionAttempts();
    try {
      // The production lookup (no injected one): the stub stands where the system resolver answers.
      const fetcher = createOutboundFetcher({ outboundTestResolve: null, outboundTestCa: null }, { timeoutMs: 700 });
      const result = await fetcher.fetch('https://rebind.example/');
      // 1.1.1.1 does not serve rebind.example (or is unreachable offline): some failure, never a private answer.
      expect(result.ok).toBe(false);
    } finally {
      recorder.stop();
    }
    expect(resolver.asked).toStrictEqual(['rebind.example']);
    expect(recorder.attempts.length).toBeGreaterThan(0);
    expect(new Set(recorder.attempts)).toStrictEqual(new Set([`${PUBLIC}:443`]));
  });
});
