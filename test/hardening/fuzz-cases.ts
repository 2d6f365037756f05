/* The hostile inputs of the fuzz test, as tables: every route gets all of them. */

/** A deterministic PRNG (mulberry32): a failure names its seed and replays exactly. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const nested = (levels: number, open = '{"a":', close = '}'): string => `${open.repeat(levels)}1${close.repeat(levels)}`;

export const PATH_IDS = [
  '%', '%zz', '%C0%AF', '%FF%FE', '%00', '%2F', '%E2%80%AE1', '0', '-1', '+1', '01', '1.0', '1e3', '0x10', ' 1',
  '2147483647', '2147483648', '9'.repeat(400), '١٢', '%F0%9F%98%80', 'null', 'undefined', '__proto__', '..', '1;2',
];

export const QUERIES = [
  'page=0', 'page=-1', 'page=abc', 'page=1e3', 'page=1000001', 'page=1.5', 'page=', 'limit=0', 'limit=-5', 'limit=abc',
  'limit=99999999999999999999999', 'limit=101', 'page=1&page=2', 'limit=1&limit=x', 'domainId=abc', 'domainId=0',
  'domainId=99999999999', 'domainId=1&domainId=2', 'archived=maybe', 'archived=true&archived=false', 'status=x',
  'kind=x', 'format=x', 'createdFrom=yesterday', 'createdFrom=2026-01-02T00:00:00Z&createdBefore=2026-01-01T00:00:00Z',
  'unknown=1', '%zz=%zz', 'page=%FF', `page=${'9'.repeat(5000)}`, 'page[]=1', 'page[a]=1', '=&&=', 'type=form.%00',
];

/** Header sets; `key` and `siteKey` stand for the valid credentials. */
export const HEADERS: Record<string, string>[] = [
  {},
  { authorization: 'Bearer' },
  { authorization: 'Bearer ' },
  { authorization: 'Basic dXNlcjpwYXNz' },
  { authorization: `Bearer svc_live_${'A'.repeat(43)}` },
  { authorization: `Bearer svc_live_${'A'.repeat(42)}%` },
  { authorization: `Bearer ${'x'.repeat(16_000)}` },
  { authorization: 'Bearer key', 'x-service-site-key': 'siteKey' },
  { authorization: 'Bearer key', 'idempotency-key': '' },
  { authorization: 'Bearer key', 'idempotency-key': 'x'.repeat(300) },
  { authorization: 'Bearer key', 'idempotency-key': 'caf\u00e9' },
  { authorization: 'Bearer key', 'idempotency-key': 'ok-key' },
  { authorization: 'Bearer key', 'content-type': 'text/plain' },
  { authorization: 'Bearer key', 'content-type': 'multipart/form-data; boundary=x' },
  { authorization: 'Bearer key', 'content-type': 'application/json; charset=latin1' },
  { authorization: 'Bearer key', 'x-request-id': '../../etc' },
  { authorization: 'Bearer key', 'x-huge': 'h'.repeat(32_000) },
  { 'x-service-site-key': '' },
  { 'x-service-site-key': 'svc_site_nope' },
  { 'x-service-site-key': `svc_site_${'\u00ff'.repeat(40)}` },
];

const manyKeys = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i]));

/** Raw request bodies (strings as sent). */
export const BODIES: string[] = [
  '', '{', '}', '{"a":', 'null', 'true', '1', '"text"', '[]', '[{}]', '{}', '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{}}}', nested(5000), nested(5000, '[', ']'), `{"formData":${nested(5000)}}`,
  `{"name":"N","fields":[${nested(5000)}]}`, `{"url":${nested(5000)},"event":"submission.created"}`,
  JSON.stringify({ formData: 'x' }), JSON.stringify({ formData: [] }), JSON.stringify({ formData: null }),
  JSON.stringify({ formData: manyKeys }), JSON.stringify({ formData: { big: 'x'.repeat(60_000) } }),
  JSON.stringify({ formData: { 'N\u0000ame': 'A\u0000da', '\ud83d\ude00': '\u202e' } }), JSON.stringify({ formData: { a: 1 }, extra: true }),
  JSON.stringify({ name: 1, fields: 'x' }), JSON.stringify({ name: '', fields: [] }), JSON.stringify({ name: 'N', fields: [{ type: 'nope', label: 1 }] }),
  JSON.stringify({ name: 'N'.repeat(100_000), fields: [{ type: 'text', label: 'L' }] }),
  JSON.stringify({ name: 'N', fields: [{ type: 'text', label: 'L' }], domainId: -1 }),
  JSON.stringify({ name: 'N', fields: [{ type: 'text', label: 'L' }], domainId: 1e300 }),
  JSON.stringify({ name: 'N', fields: [{ type: 'text', label: 'L' }], webhookUrl: 'javascript:alert(1)' }),
  JSON.stringify({ name: 'N\u0000', fields: [{ type: 'text', label: '\u0000' }], type: 'multi-step' }),
  JSON.stringify({ archived: 'yes' }), JSON.stringify({ id: 1, userId: 2 }), JSON.stringify({ fields: [] }),
  JSON.stringify({ url: 'http://x', event: 'nope' }), JSON.stringify({ url: 'https://127.0.0.1/', event: 'submission.created', formId: 'x' }),
  JSON.stringify({ url: `https://${'a'.repeat(3000)}.example/`, event: 'form.created' }),
  JSON.stringify(Array.from({ length: 10_000 }, () => 0)), `"${'x'.repeat(1_100_000)}"`, '\u0000', '\ufeff{}', '{"a":1}{"b":2}',
  '{"a":1e999999}', '{"a":-0}', '{"a":"\\ud800"}', '{"formData":{"a":"\\ud800"}}', '{"formData":{"\\udc00":1e999}}',
  '{"name":"\\udfff","fields":[{"type":"text","label":"\\ud800"}]}',
];

/** GraphQL requests: [body, extra headers]. */
export const GRAPHQL: [string, Record<string, string>][] = [
  [JSON.stringify({ query: `${'{a'.repeat(3000)}${'}'.repeat(3000)}` }), {}],
  [JSON.stringify({ query: `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: __typename`).join(' ')} }` }), {}],
  [JSON.stringify({ query: `{ forms(domainId: ${'['.repeat(5000)}1${']'.repeat(5000)}) { pagination { total } } }` }), {}],
  [JSON.stringify({ query: '{ __typename }', variables: 'x' }), {}],
  [JSON.stringify({ query: '{ __typename }', variables: [] }), {}],
  [`{"query":"{ __typename }","variables":${nested(5000)}}`, {}],
  [`{"query":"{ __typename }","extensions":${nested(5000)}}`, {}],
  [JSON.stringify({ query: 'mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }', variables: { f: 'abc', d: 1 } }), {}],
  [JSON.stringify({ query: 'mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }', variables: { f: 1, d: 'x' } }), {}],
  [JSON.stringify({ query: 'mutation($f: Int!, $d: JSON) { ingestSubmission(formId: $f, formData: $d) { replayed } }', variables: { f: 2147483648, d: {} } }), {}],
  [JSON.stringify({ query: 'mutation { createForm(input: { name: "", fields: [] }) { id } }' }), {}],
  [JSON.stringify({ query: `{ forms(limit: ${'9'.repeat(30)}) { pagination { total } } }` }), {}],
  [JSON.stringify({ query: '{ forms(page: -1, limit: 0) { pagination { total } } }' }), {}],
  [JSON.stringify({ query: '{ form(id: 1) { id name fields { id } latestSubmissions(limit: 100000) { id formData } } }' }), {}],
  [JSON.stringify({ query: `{ __typename @${'a'.repeat(100_000)} }` }), {}],
  [JSON.stringify({ query: `{ __typename } # ${'\u0000'.repeat(100)}` }), {}],
  [JSON.stringify({ query: `query { a: __typename } ${'fragment F on Query { __typename } '.repeat(200)}` }), {}],
  [JSON.stringify({ query: '{ __typename }', operationName: 'Nope' }), {}],
  [JSON.stringify({ query: 123 }), {}],
  [JSON.stringify({}), {}],
  [JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]), {}],
  ['{', {}],
  ['null', {}],
  ['', {}],
  [JSON.stringify({ query: '{ __typename }' }), { 'content-type': 'text/plain' }],
  [JSON.stringify({ query: '{ __schema { types { name } } }' }), {}],
  [JSON.stringify({ query: '{ forms { data { id latestSubmissions { id } } } }' }), {}],
  [JSON.stringify({ query: `query Q(${Array.from({ length: 300 }, (_, i) => `$v${i}: Int`).join(' ')}) { __typename }` }), {}],
  [JSON.stringify({ query: 'subscription { x }' }), {}],
  [JSON.stringify({ query: 'mutation { createForm(input: { name: "N\\u0000", fields: [{ type: "text", label: "L" }] }) { id } }' }), {}],
  [JSON.stringify({ query: 'mutation($i: CreateFormInput!) { createForm(input: $i) { id } }', variables: { i: { name: 'N\u0000', fields: [{ type: 'text', label: 'L' }] } } }), {}],
];

/** A random value of JSON: deep or wide, strings with odd code points. */
export function randomJson(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 6 ? 4 : 7));
  switch (pick) {
    case 0:
      return Math.floor(random() * 2 ** 33) * (random() < 0.5 ? -1 : 1);
    case 1:
      return String.fromCharCode(...Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * 0xd7ff)));
    case 2:
      return random() < 0.5 ? null : random() < 0.5;
    case 3:
      return random() * 1e308;
    case 4:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [['formData', 'name', 'fields', 'url', 'event', 'archived', 'webhookUrl', 'type', 'domainId', 'formId', 'x'][Math.floor(random() * 11)] ?? 'x', randomJson(random, depth + 1)]),
      );
  }
}

/** Random bytes, percent-encoded: path ids and query values no table above thought of. */
export function randomEncoded(random: () => number): string {
  return Array.from({ length: 1 + Math.floor(random() * 8) }, () => `%${Math.floor(random() * 256).toString(16).padStart(2, '0').toUpperCase()}`).join('');
}
