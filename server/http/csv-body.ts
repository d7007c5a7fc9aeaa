import type { Context } from 'hono';
import { ApiError } from './errors.ts';

const CSV_MEDIA_TYPE = /^(text\/csv|application\/csv|text\/plain)$/i;

/**
 * The raw bytes of a CSV upload (`Content-Type: text/csv`), undecoded: whether they are UTF-8 is the
 * reader's to check, which a browser that decoded the file into JSON would already have hidden
 * (decision 038). The size is limited before this by the body limit of `app.ts`. Another media
 * type is refused (415) rather than guessed at.
 */
export async function readCsvBody(c: Context): Promise<Uint8Array> {
  const mediaType = c.req.header('Content-Type')?.split(';')[0]?.trim() ?? '';
  if (!CSV_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError(415, 'Request body must be a CSV file (Content-Type: text/csv).');
  }
  return new Uint8Array(await c.req.arrayBuffer());
}
