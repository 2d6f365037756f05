import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { traceIdOf } from '../../src/infra/trace-context.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedAccount } from '../support/seed.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('traceIdOf (W3C traceparent)', () => {
  it('reads the trace id of a valid header and ignores a malformed one', () => {
    expect(traceIdOf(`00-${TRACE_ID}-00f067aa0ba902b7-01`)).toBe(TRACE_ID);
    expect(traceIdOf(`01-${TRACE_ID}-00f067aa0ba902b7-01-future`)).toBe(TRACE_ID);
    for (const header of [
      null,
      '',
      `00-${TRACE_ID}-00f067aa0ba902b7-01-extra`,
      `ff-${TRACE_ID}-00f067aa0ba902b7-01`,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `00-${TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01`,
      `00-${TRACE_ID}-00f067aa0ba902b7`,
    ]) {
      expect(traceIdOf(header)).toBeNull();
    }
  });
});

describe('a request with a traceparent header', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_REQUESTS: 'true' } });
    key = (await seedAccount(t.db)).apiKeys.full!.key;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("carries its trace id as the request log line's traceId (a new one per request without a valid header)", async () => {
    const lines: Record<string, unknown>[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      for (const text of String(chunk).split('\n')) if (text.startsWith('{')) lines.push(JSON.parse(text) as Record<string, unknown>);
      return true;
    });
    try {
      await t.request('GET', '/v1/forms', { key, headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, 'x-request-id': 'traced' } });
      await t.request('POST', '/graphql', { key, body: { query: '{ __typename }' }, headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, 'x-request-id': 'traced-graphql' } });
      await t.request('GET', '/v1/forms', { key, headers: { traceparent: 'not-a-traceparent', 'x-request-id': 'untraced' } });
      await t.request('GET', '/v1/forms', { key, headers: { 'x-request-id': 'untraced-2' } });
    } finally {
      write.mockRestore();
    }
    expect(lines.find((line) => line.requestId === 'traced')).toMatchObject({ traceId: TRACE_ID, status: 200 });
    expect(lines.find((line) => line.requestId === 'traced-graphql')).toMatchObject({ traceId: TRACE_ID, status: 200 });
    const generated = ['untraced', 'untraced-2'].map((id) => lines.find((line) => line.requestId === id)?.traceId);
    for (const traceId of generated) expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set([TRACE_ID, ...generated]).size).toBe(3);
  });
});
