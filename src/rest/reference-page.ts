import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Response } from '@whatwg-node/server';
import { ASSET_HEADERS, pageHeaders } from '../page-headers.js';

/** Where the page loads Redoc from: served by us, so the reference works offline (no CDN). */
export const REDOC_SCRIPT_PATH = '/docs/redoc.standalone.js';
const INIT_SCRIPT_PATH = '/docs/reference.js';

const INIT_SCRIPT = `Redoc.init('/v1/openapi.json', { expandResponses: '200,201,202', jsonSampleExpandLevel: 3 }, document.getElementById('reference'));\n`;

/**
 * Only this origin: the page must render offline. Redoc styles through injected <style> tags and runs its search
 * index in a blob: worker.
 */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src blob:; connect-src 'self'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>widgets-gateway v1 API reference</title>
  <link rel="icon" href="/favicon.ico">
  <style>body { margin: 0; }</style>
</head>
<body>
  <div id="reference"></div>
  <script src="${REDOC_SCRIPT_PATH}"></script>
  <script src="${INIT_SCRIPT_PATH}"></script>
</body>
</html>
`;

/**
 * Redoc's footer shows a logo from its CDN (no option turns it off). An empty data: URL instead fails to decode,
 * and Redoc then drops the image: the page asks no other host for anything.
 */
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

const require = createRequire(import.meta.url);
// Read on first use: a gateway nobody opens /docs on never holds the 1 MB bundle.
let script: Promise<string> | null = null;
const loadScript = (): Promise<string> =>
  (script ??= readFile(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8').then((text) => text.replaceAll(CDN_LOGO, 'data:,')));

/** The rendered API reference: Redoc's standalone bundle over the live `/v1/openapi.json`. No auth: like the document. */
export async function referenceResponse(pathname: string): Promise<Response | null> {
  if (pathname === '/docs') return new Response(PAGE, { headers: pageHeaders(CSP) });
  if (pathname === INIT_SCRIPT_PATH) return new Response(INIT_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', ...ASSET_HEADERS } });
  if (pathname === REDOC_SCRIPT_PATH) return new Response(await loadScript(), { headers: { 'content-type': 'text/javascript; charset=utf-8', ...ASSET_HEADERS } });
  return null;
}
