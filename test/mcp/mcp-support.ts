import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createDemoData, type DemoData } from '../../src/fixtures/demo.service.js';
import type { ImportedAccount } from '../../src/fixtures/fixture-import.js';
import { READ_SCOPES } from '../../src/scopes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { closeHttpServer, serveOnLoopback } from '../support/http-server.js';
import { seedAccount, testHasher } from '../support/seed.js';

/** An MCP client of the official SDK over real HTTP, and the headers of the last answer it got. */
export interface AgentClient {
  client: Client;
  /** The last POST's answer headers (rate-limit headers of a tool call). */
  lastHeaders(): Headers;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface McpFixture {
  app: TestApp;
  baseUrl: string;
  demo: DemoData;
  /** Another account (pro): keys `readonly` (every read scope), `forms` (read:forms only), `tiny` (read:forms, 2 points an hour). */
  agents: ImportedAccount;
  /** A free-plan account's key: 402 before any method. */
  freeKey: string;
  connect(key: string): Promise<AgentClient>;
  close(): Promise<void>;
}

export function keyOf(account: ImportedAccount, ref: string): string {
  const key = account.apiKeys[ref]?.key;
  if (!key) throw new Error(`no key ${ref}`);
  return key;
}

/** The gateway behind node:http on a loopback port, the first-start demo data, and keys of fewer scopes. */
export async function startMcpFixture(): Promise<McpFixture> {
  const app = await createTestApp();
  const demo = await createDemoData(app.db.prisma, testHasher);
  const agents = await seedAccount(app.db, {
    ref: 'agents',
    ownerEmail: 'owner@agents.example',
    apiKeys: [
      { ref: 'readonly', scopes: [...READ_SCOPES] },
      { ref: 'forms', scopes: ['read:forms'] },
      { ref: 'tiny', scopes: ['read:forms'], rateLimitPerHour: 2 },
    ],
    sites: [],
  });
  const free = await seedAccount(app.db, { ref: 'free', plan: 'free', ownerEmail: 'owner@free.example', sites: [] });
  const { server, baseUrl } = await serveOnLoopback(app.app);

  async function connect(key: string): Promise<AgentClient> {
    let headers = new Headers();
    const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'POST') headers = response.headers;
        return response;
      },
    });
    const client = new Client({ name: 'widgets-gateway-test', version: '1.0.0' });
    await client.connect(transport);
    return {
      client,
      lastHeaders: () => headers,
      // Client#callTool of SDK 1.32 checks an error's structuredContent against the success schema too
      // (typescript-sdk#1943): the request itself, so a v1 error body reaches the test; successes are checked by ajv.
      call: (name, args = {}) => client.request({ method: 'tools/call', params: { name, arguments: args } }, CallToolResultSchema),
      close: () => client.close(),
    };
  }

  return {
    app,
    baseUrl,
    demo,
    agents,
    freeKey: keyOf(free, 'full'),
    connect,
    close: async () => {
      await closeHttpServer(server);
      await app.close();
    },
  };
}
