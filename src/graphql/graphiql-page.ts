import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Response } from '@whatwg-node/server';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import { ASSET_HEADERS, pageHeaders } from '../page-headers.js';
import { setHeader } from './set-header.js';

const QUERY = `# Paste your API key in the Headers tab below
# (npm start prints the demo key once), then run.
# Without a key the service answers 401.
query Dashboard {
  forms(limit: 10) {
    data { id name submissionCount domain { domain } latestSubmissions(limit: 3) { id createdAt } }
    pagination { total }
  }
}
`;

/**
 * A placeholder, never a real key: the page is served without auth, so whatever it embeds is public. Plain ASCII
 * (a browser's fetch refuses a header value outside ISO-8859-1, such as "…"), so the first request reaches the
 * service and the person reads its 401 rather than a browser error.
 */
export const GRAPHIQL_KEY_PLACEHOLDER = '<paste your svc_live_ API key here>';
const HEADERS = JSON.stringify({ Authorization: `Bearer ${GRAPHIQL_KEY_PLACEHOLDER}` });

export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: 'widgets-gateway GraphiQL',
  defaultQuery: QUERY,
  headers: HEADERS,
  defaultHeaders: HEADERS,
  defaultEditorToolsVisibility: 'headers',
};

/** GraphiQL's code, styles and editor workers, served as separate files a browser caches (below). */
const ASSETS_PATH = '/graphiql/';

type Bundle = typeof import('@graphql-yoga/render-graphiql/graphiql');
type Asset = { type: string; pick: (bundle: Bundle) => string };

const INIT_SCRIPT = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (moduleId, label) => ({ editorWorkerService: '${ASSETS_PATH}editor.worker.js', json: '${ASSETS_PATH}json.worker.js', graphql: '${ASSETS_PATH}graphql.worker.js' })[label],
};
YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), JSON.parse(document.getElementById('graphiql-options').textContent));
`;

const JS = 'text/javascript; charset=utf-8';
const ASSETS: Record<string, Asset> = {
  'graphiql.css': { type: 'text/css; charset=utf-8', pick: (bundle) => bundle.css },
  'graphiql.js': { type: JS, pick: (bundle) => bundle.js },
  'editor.worker.js': { type: JS, pick: (bundle) => bundle.editorWorkerService },
  'json.worker.js': { type: JS, pick: (bundle) => bundle.jsonWorker },
  'graphql.worker.js': { type: JS, pick: (bundle) => bundle.graphqlWorker },
  'init.js': { type: JS, pick: () => INIT_SCRIPT },
};

/**
 * Everything from this origin, no inline script: GraphiQL and Monaco inject <style> elements (hence
 * 'unsafe-inline' for styles only), its fonts and icons are data: URLs, and the editors run in workers.
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self'; connect-src 'self'";

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Yoga's renderGraphiQL inlines the whole GraphiQL bundle (9 MB) into every page it serves, with inline scripts a
 * strict CSP refuses. This page is 2 KB: it names the same bundle's parts as files (ASSETS), cached for a day, and
 * hands Yoga's options over as JSON data that no browser executes.
 */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  // `<` escaped, so no value can close the data block.
  const json = JSON.stringify(options).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
  <link rel="icon" href="/favicon.ico">
  <link rel="stylesheet" href="${ASSETS_PATH}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
  <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
  <div id="root"></div>
  <script type="application/json" id="graphiql-options">${json}</script>
  <script src="${ASSETS_PATH}graphiql.js"></script>
  <script src="${ASSETS_PATH}init.js"></script>
</body>
</html>
`;
}

// Imported on first use: a gateway nobody opens GraphiQL on never holds the bundle (~30 MB of heap once loaded).
let bundle: Promise<Bundle> | null = null;
const gzipped = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
const compress = promisify(gzip);

/**
 * A file of GraphiQL's page (`/graphiql/<name>`), or null for any other path. No auth: like the page. Gzipped for
 * a browser that takes it (8.8 MB of files → 2.4 MB sent), compressed once per process, off the event loop.
 */
export async function graphiqlAsset(request: Request, pathname: string): Promise<Response | null> {
  if (!pathname.startsWith(ASSETS_PATH)) return null;
  const name = pathname.slice(ASSETS_PATH.length);
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return null;
  const text = asset.pick(await (bundle ??= import('@graphql-yoga/render-graphiql/graphiql')));
  const headers = { 'content-type': asset.type, vary: 'Accept-Encoding', ...ASSET_HEADERS };
  if (!/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) return new Response(text, { headers });
  let body = gzipped.get(name);
  if (!body) gzipped.set(name, (body = compress(text).then((bytes) => new Uint8Array(bytes))));
  return new Response(await body, { headers: { ...headers, 'content-encoding': 'gzip' } });
}

/** Yoga answers a browser's GET /graphql with the page rendered above; it gets the pages' security headers here. */
export function useGraphiQLPageHeaders(): Plugin {
  const headers = pageHeaders(CSP);
  return {
    onResponse({ response }) {
      if (!response.headers.get('content-type')?.startsWith('text/html')) return;
      for (const [name, value] of Object.entries(headers)) setHeader(response.headers, name, value);
    },
  };
}
