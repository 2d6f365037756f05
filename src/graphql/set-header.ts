/**
 * Sets a header on a Response Yoga built. @whatwg-node/node-fetch's Headers (0.8) keep the object a response was made
 * with until first read as a map, and `set` then adds `content-type` beside that object's `Content-Type`: both went
 * on the wire (two Content-Types on the GraphiQL page, two Retry-Afters on a 429). Only a name already there is
 * deleted first (which turns the object into the map, where names are one case): an answer whose headers stay the
 * plain object keeps @whatwg-node/server's fast path that writes them as they are.
 */
export function setHeader(headers: Headers, name: string, value: string): void {
  if (headers.has(name)) headers.delete(name);
  headers.set(name, value);
}
