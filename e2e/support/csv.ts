import { TENANT_CSV_COLUMNS, type TenantCsvRecord } from '../../contract/tenant-csv.ts';

/**
 * Parses CSV as RFC 4180 writes it: records end in CRLF (a lone LF is accepted too), a field in
 * double quotes may hold commas, quotes (doubled) and line breaks. A final line end adds no record.
 * Throws on a quote inside an unquoted field or an unterminated quoted one, so a malformed file
 * fails the scenario instead of being read loosely.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let index = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (index < text.length) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
      } else if (char === '"') {
        quoted = false;
        index += 1;
        const next = text[index];
        if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') {
          throw new Error(`CSV: text after a closing quote at offset ${index}.`);
        }
      } else {
        field += char;
        index += 1;
      }
    } else if (char === '"') {
      if (field !== '') throw new Error(`CSV: a quote inside an unquoted field at offset ${index}.`);
      quoted = true;
      index += 1;
    } else if (char === ',') {
      endField();
      index += 1;
    } else if (char === '\r' && text[index + 1] === '\n') {
      endRecord();
      index += 2;
    } else if (char === '\n') {
      endRecord();
      index += 1;
    } else {
      field += char;
      index += 1;
    }
  }
  if (quoted) throw new Error('CSV: a quoted field is not closed.');
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/**
 * The accounts export read by its header: each record by the contract's column names. Throws when
 * the header is not the contract's columns in order, or a record has another number of cells.
 */
export function parseTenantCsv(text: string): TenantCsvRecord[] {
  const [header, ...records] = parseCsv(text);
  if (header?.join(',') !== TENANT_CSV_COLUMNS.join(',')) {
    throw new Error(`CSV: the header is ${JSON.stringify(header)}, not the contract's columns.`);
  }
  return records.map((cells, index) => {
    if (cells.length !== TENANT_CSV_COLUMNS.length) {
      throw new Error(
        `CSV: record ${index + 1} has ${cells.length} cells, not ${TENANT_CSV_COLUMNS.length}.`,
      );
    }
    return Object.fromEntries(TENANT_CSV_COLUMNS.map((column, at) => [column, cells[at]])) as TenantCsvRecord;
  });
}
