import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { measureInterleaved, type LoadResult } from '../driver.js';
import { ratio, round } from '../report.js';
import { holds, type Stage } from './stage.js';

/**
 * An agent's door (decisions §7.3): `tools/call` of `list_forms` over POST /mcp against the same list on /v1
 * (`GET /v1/forms?limit=100`), on one gateway, interleaved in slices. The MCP answer carries the body twice (as
 * `structuredContent` and as its JSON text), so this is the transport's whole price: SDK server per request, the
 * JSON-RPC envelope, the second serialization.
 */

const ROUNDS = 3;
const REST_PATH = '/v1/forms?limit=100';
const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_forms', arguments: { limit: 100 } } };

function mcpRequest(apiKey: string): AutocannonRequest {
  return {
    method: 'POST',
    path: '/mcp',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(CALL),
  };
}

/** The tool's structuredContent must be the REST body: otherwise the run would compare two different answers. */
async function sameAnswer(baseUrl: string, apiKey: string): Promise<number> {
  const rest = await fetch(`${baseUrl}${REST_PATH}`, { headers: { authorization: `Bearer ${apiKey}` } });
  const restText = await rest.text();
  const mcp = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: mcpRequest(apiKey).headers, body: JSON.stringify(CALL) });
  const mcpText = await mcp.text();
  const answer = JSON.parse(mcpText) as { result?: { structuredContent?: unknown; isError?: boolean } };
  if (rest.status !== 200 || mcp.status !== 200 || answer.result?.isError || JSON.stringify(answer.result?.structuredContent) !== restText) {
    throw new Error(`mcp: list_forms does not answer the REST body (REST ${rest.status}, MCP ${mcp.status}: ${mcpText.slice(0, 300)})`);
  }
  return Buffer.byteLength(mcpText);
}

function expectOnly200(label: string, result: LoadResult): void {
  const other = Object.entries(result.statusCodes).filter(([code]) => code !== '200');
  if (other.length || result.errors || result.timeouts) throw new Error(`${label}: expected only 200, got ${JSON.stringify(result.statusCodes)}, ${result.errors} errors, ${result.timeouts} timeouts`);
}

export const mcpStage: Stage = {
  name: 'mcp',
  title: 'MCP tools/call of list_forms vs GET /v1/forms?limit=100, interleaved on one gateway',
  async run(context) {
    const apiKey = context.dataset.apiKey;
    const gateway = await context.startGateway(context.url, join(context.scratch, 'gateway-mcp'));
    let measured: Map<string, LoadResult>;
    let mcpBytes: number;
    try {
      const baseUrl = `http://127.0.0.1:${gateway.port}`;
      mcpBytes = await sameAnswer(baseUrl, apiKey);
      const { connections, durationS, warmupS } = context.settings;
      measured = await measureInterleaved(
        [
          { label: 'rest', url: baseUrl, requests: [{ method: 'GET', path: REST_PATH, headers: { authorization: `Bearer ${apiKey}` } }] },
          { label: 'mcp', url: baseUrl, requests: [mcpRequest(apiKey)] },
        ],
        { durationS, warmupS, connections, rounds: ROUNDS },
      );
    } finally {
      await gateway.stop();
    }
    const rest = measured.get('rest');
    const mcp = measured.get('mcp');
    if (!rest || !mcp) throw new Error('mcp: a target was not measured');
    expectOnly200('GET /v1/forms', rest);
    expectOnly200('POST /mcp tools/call', mcp);
    const speed = ratio(mcp.reqPerSec, rest.reqPerSec);
    context.log(`mcp: tools/call list_forms ${mcp.reqPerSec.toFixed(0)} req/s vs GET /v1/forms ${rest.reqPerSec.toFixed(0)} req/s (x${speed})`);
    const row = (request: string, result: LoadResult) => ({ request, reqPerSec: round(result.reqPerSec, 1), p50Ms: round(result.p50Ms, 2), p99Ms: round(result.p99Ms, 2), answers: result.ok });
    return {
      figures: {
        mcpAnswerBytes: mcpBytes,
        mcpVsRestReqPerSec: speed,
        runs: [row('GET /v1/forms?limit=100', rest), row('POST /mcp tools/call list_forms { limit: 100 }', mcp)],
      },
      targets: [{ name: 'MCP tools/call list_forms req/s vs GET /v1/forms?limit=100', target: '>= 0.9', value: speed, holds: holds(speed, (v) => v >= 0.9) }],
      notes: [`mcp: ${ROUNDS} interleaved slices of each on one gateway at ${context.settings.connections} connections; the MCP call is stateless (no initialize first), as an agent's every call after the first.`],
    };
  },
};
