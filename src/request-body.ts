import { AppError } from './errors.js';

/** Every request body, v1 and /graphql, is read under this cap; formData's own cap (51,200 bytes) is far below it. */
export const MAX_BODY_BYTES = 1_048_576;

const tooLarge = (used: number): AppError =>
  new AppError('payload_too_large', { cap: MAX_BODY_BYTES, used }, { message: 'The request body is too large', requestLevel: true });

/** 413 for a declared Content-Length over the cap, before a byte of the body is read. */
export function assertDeclaredLength(headers: Headers): void {
  const declared = headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge(Number(declared));
}

/**
 * The body as text, never buffering more than the cap. With a Content-Length (within the cap) Node's HTTP parser
 * holds the body to it; a chunked body, which declares nothing, is counted as it arrives and cut off (413, with the
 * bytes received) once it passes the cap, while the client may still be sending.
 */
export async function readBodyText(request: Request): Promise<string> {
  assertDeclaredLength(request.headers);
  if (request.headers.has('content-length') || !request.body) return request.text();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let used = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    used += read.value.byteLength;
    if (used > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge(used);
    }
    chunks.push(read.value);
  }
  // As Request#text() decodes: UTF-8, a leading BOM dropped, malformed bytes as U+FFFD.
  return new TextDecoder().decode(Buffer.concat(chunks));
}
