import type { Context } from 'hono';
import { compressStream, streamCodingFor } from './compression.ts';

/** The one CSV writer of the platform, shared with the console's own files. */
export { csvCell, csvLine } from '../../contract/csv.ts';

/**
 * Rows per query of an export read in batches: one batch is all it holds in memory (a few MB). 5,000
 * read a million accounts in 0.84× the time 1,000 took; 10,000 gained nothing more (`npm run bench lists`).
 */
export const EXPORT_BATCH_SIZE = 5000;

/** A CSV export: its header line, the rows batch by batch, and how one row is written. */
export interface CsvExport<TRow> {
  header: string;
  batches: AsyncGenerator<readonly TRow[], void, undefined>;
  line(row: TRow): string;
  filename: string;
}

/** A CSV export whose lines come written (by the database: decision 027), in pieces of any size. */
export interface WrittenCsvExport {
  header: string;
  body: AsyncGenerator<string | Uint8Array, void, undefined>;
  filename: string;
}

/** A file answered as a stream of text: a head, the rows batch by batch, and an optional last part. */
export interface StreamedFile<TRow> {
  head: string;
  batches: AsyncGenerator<readonly TRow[], void, undefined>;
  line(row: TRow): string;
  /** Written after the last batch, once every row was read (the audit export's proof line). */
  tail?: () => Promise<string>;
  contentType: string;
  filename: string;
}

/** A streamed file whose body after the head comes in pieces of any size. */
interface StreamedBody {
  head: string;
  body: AsyncGenerator<string | Uint8Array, void, undefined>;
  tail?: () => Promise<string>;
  contentType: string;
  filename: string;
}

/** Each batch of `batches` written as one piece of text. */
async function* writtenBatches<TRow>(
  batches: AsyncGenerator<readonly TRow[], void, undefined>,
  line: (row: TRow) => string,
): AsyncGenerator<string, void, undefined> {
  // Stopping this generator early ends `batches` too (for await returns it).
  for await (const batch of batches) yield batch.map(line).join('');
}

/**
 * Answers a file streamed piece by piece, so an export holds one piece (a batch of rows, a chunk of
 * COPY data) in memory whatever its size. The first piece is read before answering, so a failure to
 * start is a clean 500, not a cut file; a later failure can only cut the transfer, and the log says
 * why. Sent compressed when the client accepts it (brotli or gzip).
 */
async function streamedBodyResponse(c: Context, file: StreamedBody): Promise<Response> {
  const { body } = file;
  const first = await body.next();
  const encoder = new TextEncoder();
  const bytes = (piece: string | Uint8Array) => (typeof piece === 'string' ? encoder.encode(piece) : piece);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(file.head));
      if (!first.done) controller.enqueue(bytes(first.value));
    },
    async pull(controller) {
      try {
        const next = await body.next();
        if (!next.done) {
          controller.enqueue(bytes(next.value));
          return;
        }
        if (file.tail) controller.enqueue(encoder.encode(await file.tail()));
        controller.close();
      } catch (error) {
        console.error(`${c.req.method} ${c.req.path} failed while streaming:`, error);
        controller.error(error);
      }
    },
    async cancel() {
      await body.return(undefined);
    },
  });
  const headers = new Headers({
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${file.filename}"`,
  });
  // Text compresses to a fraction of its size; the pieces are compressed as they are read, so the
  // export still holds one piece in memory.
  const coding = streamCodingFor(c, headers);
  if (coding) headers.set('Content-Encoding', coding);
  return c.body(coding ? compressStream(stream, coding) : stream, 200, Object.fromEntries(headers));
}

/** Answers a file streamed batch by batch (`streamedBodyResponse`). */
export function streamedFileResponse<TRow>(c: Context, file: StreamedFile<TRow>): Promise<Response> {
  const { batches, line, ...rest } = file;
  return streamedBodyResponse(c, { ...rest, body: writtenBatches(batches, line) });
}

const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Answers a CSV file streamed batch by batch (`streamedFileResponse`). */
export function csvResponse<TRow>(c: Context, file: CsvExport<TRow>): Promise<Response> {
  return streamedFileResponse(c, { ...file, head: file.header, contentType: CSV_CONTENT_TYPE });
}

/** Answers a CSV file whose lines come written, streamed as they come (`streamedBodyResponse`). */
export function writtenCsvResponse(c: Context, file: WrittenCsvExport): Promise<Response> {
  return streamedBodyResponse(c, { ...file, head: file.header, contentType: CSV_CONTENT_TYPE });
}
