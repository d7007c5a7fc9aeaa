import type { Context } from 'hono';

/**
 * Every CSV the platform writes (RFC 4180): CRLF line ends, quotes doubled, and a cell quoted when it
 * holds a quote, a line break or the separator of any spreadsheet convention (comma, semicolon, tab):
 * a German or French spreadsheet splits an unquoted `Csv;-ABS(1)` on the semicolon, and its second
 * half would start a formula. A cell a spreadsheet would read as a formula (starting with = + - @, a
 * tab or a carriage return) gets a leading apostrophe, so an account name such as `=HYPERLINK(…)`
 * arrives as text (OWASP, CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Rows per query of a CSV export: one batch is all it holds in memory. */
export const EXPORT_BATCH_SIZE = 1000;

/** A CSV export: its header line, the rows batch by batch, and how one row is written. */
export interface CsvExport<TRow> {
  header: string;
  batches: AsyncGenerator<readonly TRow[], void, undefined>;
  line(row: TRow): string;
  filename: string;
}

/**
 * Answers a CSV file streamed batch by batch, so an export holds one batch in memory whatever its
 * size. The first batch is read before answering, so a failure to start is a clean 500, not a cut
 * file; a later failure can only cut the transfer, and the log says why.
 */
export async function csvResponse<TRow>(c: Context, file: CsvExport<TRow>): Promise<Response> {
  const { batches, line } = file;
  const first = await batches.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const lines = first.done ? [] : first.value.map(line);
      controller.enqueue(encoder.encode(file.header + lines.join('')));
      if (first.done) controller.close();
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value.map(line).join('')));
      } catch (error) {
        console.error(`${c.req.method} ${c.req.path} failed while streaming:`, error);
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return c.body(body, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${file.filename}"`,
  });
}
