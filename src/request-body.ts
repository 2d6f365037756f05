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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON text is UTF-8 (RFC 8259 §8.1; a `charset` parameter changes nothing): bytes that are not are refused, where
 * Request#text() would have put U+FFFD in their place and the submission stored something its sender never sent.
 * A leading byte order mark is dropped, as RFC 8259 allows.
 */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('invalid_json', {}, { message: 'The request body is not valid JSON: it is not UTF-8', requestLevel: true });
  }
}

/**
 * The body as text, never buffering more than the cap. With a Content-Length (within the cap) Node's HTTP parser
 * holds the body to it; a chunked body, which declares nothing, is counted as it arrives and cut off (413, with the
 * bytes received) once it passes the cap, while the client may still be sending.
 */
export async function readBodyText(request: Request): Promise<string> {
  assertDeclaredLength(request.headers);
  // Never inflated here: a 50 KB gzip body can expand past a gigabyte, and the cap above counts the bytes sent.
  const encoding = request.headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') {
    throw new AppError('invalid_json', {}, { message: 'The request body is not valid JSON: send it without a Content-Encoding', requestLevel: true });
  }
  if (request.headers.has('content-length') || !request.body) return decodeUtf8(new Uint8Array(await request.arrayBuffer()));
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
  return decodeUtf8(Buffer.concat(chunks));
}
