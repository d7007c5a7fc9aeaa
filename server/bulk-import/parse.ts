import { CsvError, parse } from 'csv-parse/sync';
import {
  BULK_USER_CSV_COLUMNS,
  BULK_USER_CSV_REQUIRED_COLUMNS,
  BULK_USER_MAX_ROWS,
  type BulkUserCsvColumn,
} from '../../contract/user-csv.ts';
import type { ValidationCode } from '../../contract/validation.ts';
import { invalidField } from '../http/validate.ts';

/**
 * Reads the bulk user file (decision 038) with `csv-parse`, not a parser of our own. What makes
 * the whole file unusable is refused here with a 400 naming where (`file`, `file.email`,
 * `file.line.12`, `file.row.3.email`), and nothing is stored; what concerns one row is left to the row checks.
 */

/** One data row as read: its number (1 for the first), the line it starts on, its cells by column. */
export interface ParsedRow {
  row: number;
  line: number;
  /** Cells by column, trimmed; a column past the row's last cell is absent. */
  cells: Partial<Record<BulkUserCsvColumn, string>>;
  /** Cells as read, untrimmed: a formula hides behind a leading tab or carriage return. */
  raw: Partial<Record<BulkUserCsvColumn, string>>;
  /** Whether the row has as many cells as the header row. */
  cellCountMatches: boolean;
}

export interface ParsedFile {
  columns: readonly BulkUserCsvColumn[];
  rows: ParsedRow[];
}

function refuse(field: string, code: ValidationCode): never {
  throw invalidField(field, code);
}

/** UTF-8 only: a byte sequence that is not UTF-8 refuses the file; a BOM is dropped. */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('file', 'notUtf8');
  }
}

/**
 * A comma, or a semicolon when the header line has more of those (spreadsheets in German or French
 * save so). Counted on the header line, where no quoted line break can be.
 */
function separatorOf(text: string): ',' | ';' {
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const count = (character: string) => header.split(character).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/**
 * Control characters other than tab and line breaks: nothing a spreadsheet writes into a name or an
 * address, and NUL cannot be stored in a PostgreSQL text at all.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function isColumn(name: string): name is BulkUserCsvColumn {
  return (BULK_USER_CSV_COLUMNS as readonly string[]).includes(name);
}

interface Record_ {
  record: string[];
  info: { lines: number };
  raw: string;
}

/** The line a record starts on: where it ends less the line breaks inside it. */
function startLine(record: Record_): number {
  const body = record.raw.replace(/^(?:\r?\n)+/, '').replace(/\r?\n$/, '');
  return record.info.lines - (body.match(/\n/g)?.length ?? 0);
}

export function parseBulkFile(bytes: Uint8Array): ParsedFile {
  const text = decode(bytes).replace(/^\uFEFF/, '');
  if (text.trim() === '') refuse('file', 'emptyFile');
  let records: Record_[];
  // The line the last good record ended on: an unclosed quote is reported at the end of the file by
  // the parser, but it opened on the line after that record.
  let lastGoodLine = 0;
  try {
    records = parse(text, {
      bom: true,
      delimiter: separatorOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      raw: true,
      on_record: (record, context) => {
        lastGoodLine = context.lines;
        return record;
      },
    }) as unknown as Record_[];
  } catch (error) {
    if (error instanceof CsvError) {
      const reported = (error as CsvError & { lines?: number }).lines;
      const line = error.code === 'CSV_QUOTE_NOT_CLOSED' ? lastGoodLine + 1 : reported;
      return refuse(typeof line === 'number' ? `file.line.${line}` : 'file', 'malformedCsv');
    }
    throw error;
  }
  const [header, ...data] = records;
  if (header === undefined) return refuse('file', 'emptyFile');

  const columns: BulkUserCsvColumn[] = [];
  for (const cell of header.record) {
    const name = cell.trim().toLowerCase();
    if (!isColumn(name) || columns.includes(name)) {
      return refuse(`file.${name || `column.${columns.length + 1}`}`, 'unknownColumn');
    }
    columns.push(name);
  }
  const missing = BULK_USER_CSV_REQUIRED_COLUMNS.find((name) => !columns.includes(name));
  if (missing !== undefined) refuse(`file.${missing}`, 'missingColumn');

  // Rows whose every cell is empty are what spreadsheets leave below the data (`,,,,`): not users.
  const filled = data.filter((record) => record.record.some((cell) => cell.trim() !== ''));
  if (filled.length === 0) refuse('file', 'emptyFile');
  if (filled.length > BULK_USER_MAX_ROWS) refuse('file', 'tooManyRows');

  const rows = filled.map((record, index): ParsedRow => {
    const cells: ParsedRow['cells'] = {};
    const raw: ParsedRow['raw'] = {};
    columns.forEach((column, position) => {
      const value = record.record[position];
      if (value === undefined) return;
      if (CONTROL_CHARACTER.test(value)) refuse(`file.row.${index + 1}.${column}`, 'controlCharacter');
      raw[column] = value;
      cells[column] = value.trim();
    });
    return {
      row: index + 1,
      line: startLine(record),
      cells,
      raw,
      cellCountMatches: record.record.length === columns.length,
    };
  });
  return { columns, rows };
}
