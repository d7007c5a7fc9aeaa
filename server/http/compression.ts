import { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

/** The content codings the platform sends, best first: brotli is about a fifth smaller than gzip on our JSON and scripts. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** Below this, a compressed answer saves less than its own headers and the CPU cost. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110 §12.5.3), or null for the bytes as
 * they are: the highest q above 0, brotli before gzip at equal q; `*` stands for codings not named;
 * a coding neither named nor covered by `*` is not acceptable, and neither is one with q=0.
 * `offered`: the codings at hand, in the server's order of preference.
 */
export function negotiateContentCoding(
  acceptEncoding: string | undefined,
  offered: readonly ContentCoding[] = CONTENT_CODINGS,
): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    let weight = 1;
    for (const parameter of parameters) {
      const q = /^q=([01](?:\.\d{0,3})?)$/i.exec(parameter);
      // A malformed weight makes the whole entry unreadable: it is ignored, never taken as q=1.
      weight = q ? Number(q[1]) : Number.NaN;
    }
    if (!Number.isNaN(weight) && weight <= 1) weights.set(name.toLowerCase(), weight);
  }
  let best: { coding: ContentCoding; weight: number } | null = null;
  for (const coding of offered) {
    const weight =
      weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
    if (weight > 0 && (!best || weight > best.weight)) best = { coding, weight };
  }
  return best?.coding ?? null;
}

/** Adds Accept-Encoding to the response's Vary unless it is there (or Vary is `*`). */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary === '*' || (vary && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))) return;
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Answers are compressed as they are sent, so speed matters more than the last percent: brotli at
 * quality 5 is about gzip's speed and still smaller. The console's files are compressed once at
 * build time at the highest settings instead (vite.config.ts).
 */
const DYNAMIC_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/**
 * Answers up to this size are compressed on the request's own thread. Handing one to the thread pool
 * costs more than compressing it: measured on a page of ten accounts (4.5 KB), brotli through the
 * pool took 166 µs of CPU against 26 µs in place, and that difference is most of what compression
 * costs a list request. Above it, compressing in place (about 5 ms per 1 MB) would hold up every
 * other request meanwhile.
 */
export const COMPRESS_IN_PLACE_MAX_BYTES = 64 * 1024;

function compressBytes(bytes: Uint8Array, coding: ContentCoding): Buffer | Promise<Buffer> {
  const inPlace = bytes.byteLength <= COMPRESS_IN_PLACE_MAX_BYTES;
  if (coding === 'br') {
    const options = {
      params: { ...DYNAMIC_BROTLI.params, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
    };
    return inPlace ? brotliCompressSync(bytes, options) : brotliAsync(bytes, options);
  }
  return inPlace ? gzipSync(bytes) : gzipAsync(bytes);
}

/** A web stream of the body, compressed chunk by chunk as the rows are produced. */
export function compressStream(
  body: ReadableStream<Uint8Array>,
  coding: ContentCoding,
): ReadableStream<Uint8Array> {
  const compressor = coding === 'br' ? createBrotliCompress(DYNAMIC_BROTLI) : createGzip();
  return body.pipeThrough(Duplex.toWeb(compressor) as TransformStream<Uint8Array, Uint8Array>);
}

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** Statuses whose answer has no body to compress, or (206) a byte range of one that must not change. */
const BODYLESS_STATUSES = new Set([204, 206, 304]);

/**
 * Compresses the API's JSON answers of at least `COMPRESSION_THRESHOLD_BYTES` with the coding the
 * client prefers. JSON answers are built whole before they are sent, so reading the body costs no
 * streaming; file downloads (CSV, JSONL, certificates) are not JSON and are left alone here — the
 * streamed exports compress themselves (`streamedFileResponse`). ETags stay as they are: on this API
 * they name a record's version for If-Match (decision 014), which must match whatever the coding;
 * Vary keeps shared caches from handing one coding to a client that asked for another.
 */
export function compressJsonAnswers(): MiddlewareHandler {
  return async function compressJson(c, next) {
    await next();
    const res = c.res;
    const type = res.headers.get('Content-Type');
    if (
      !type ||
      !JSON_CONTENT_TYPE.test(type) ||
      !res.body ||
      c.req.method === 'HEAD' ||
      BODYLESS_STATUSES.has(res.status) ||
      res.headers.has('Content-Encoding') ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    const declaredLength = Number(res.headers.get('Content-Length') ?? Number.NaN);
    if (declaredLength < COMPRESSION_THRESHOLD_BYTES) return;
    // The coding chosen depends on the request header from here on, whatever the size.
    varyOnAcceptEncoding(res.headers);
    const coding = negotiateContentCoding(c.req.header('Accept-Encoding'));
    if (!coding) return;
    const bytes = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    let body: Uint8Array<ArrayBuffer> = bytes;
    if (bytes.byteLength >= COMPRESSION_THRESHOLD_BYTES) {
      body = new Uint8Array(await compressBytes(bytes, coding));
      headers.set('Content-Encoding', coding);
    }
    headers.set('Content-Length', String(body.byteLength));
    c.res = undefined;
    c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}

/** The coding a request accepts for a streamed download, recorded in Vary on the way. */
export function streamCodingFor(c: Context, headers: Headers): ContentCoding | null {
  varyOnAcceptEncoding(headers);
  return negotiateContentCoding(c.req.header('Accept-Encoding'));
}
