/**
 * Every CSV the platform writes, in the server's exports and in the files the console makes itself
 * (RFC 4180): CRLF line ends, quotes doubled, and a cell quoted when it holds a quote, a line break or
 * the separator of any spreadsheet convention (comma, semicolon, tab): a German or French spreadsheet
 * splits an unquoted `Csv;-ABS(1)` on the semicolon, and its second half would start a formula. A cell
 * a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage return) gets a
 * leading apostrophe, so an account name such as `=HYPERLINK(…)` arrives as text (OWASP, CSV
 * injection). A signed whole number (`+25`, `-5`: a licence change) is a number to any spreadsheet, not a
 * formula, and stays as it is.
 *
 * The server's largest exports write the same cells in SQL (server/db/csv-sql.ts), built from the
 * characters below; tests/server/db/csv-sql.test.ts holds both writers to the same bytes.
 */

/** A cell starting with one of these is a formula to a spreadsheet, unless it is a signed whole number. */
export const CSV_FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'] as const;
/** A cell holding one of these is quoted. */
export const CSV_QUOTED_CHARACTERS = ['"', ',', ';', '\t', '\r', '\n'] as const;
/** What a defused cell starts with. */
export const CSV_FORMULA_GUARD = "'";
export const CSV_LINE_END = '\r\n';

/** A signed whole number, which stays as it is although it starts like a formula. */
export const CSV_SIGNED_INTEGER = /^[+-][0-9]+$/;

export function csvCell(value: string): string {
  const first = value.charAt(0);
  const isFormula =
    (CSV_FORMULA_STARTS as readonly string[]).includes(first) && !CSV_SIGNED_INTEGER.test(value);
  const text = isFormula ? `${CSV_FORMULA_GUARD}${value}` : value;
  const needsQuotes = CSV_QUOTED_CHARACTERS.some((character) => text.includes(character));
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}${CSV_LINE_END}`;
}
