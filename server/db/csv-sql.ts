import { type Expression, type RawBuilder, sql } from 'kysely';
import {
  CSV_FORMULA_GUARD,
  CSV_FORMULA_STARTS,
  CSV_LINE_END,
  CSV_QUOTED_CHARACTERS,
  CSV_SIGNED_INTEGER,
} from '../../contract/csv.ts';

/**
 * The platform's CSV writer (contract/csv.ts) as SQL, so that PostgreSQL writes an export's lines
 * itself (decision 027): the same characters make a formula and call for quotes, and
 * tests/server/db/csv-sql.test.ts holds the two writers to the same bytes.
 */

const formulaStarts = sql.join(CSV_FORMULA_STARTS.map((character) => sql.lit(character)));
// A bracket expression of the characters, none of which is special inside brackets in either regex syntax.
const quotedCharacter = sql.lit(`[${CSV_QUOTED_CHARACTERS.join('')}]`);
// The same pattern in both: anchors, one bracket expression, ASCII digits.
const signedInteger = sql.lit(CSV_SIGNED_INTEGER.source);

/** `csvCell(value)`: `value` defused and quoted as the writer does; `value` must never be null. */
export function csvCellSql(value: Expression<string>): RawBuilder<string> {
  const guard = sql<string>`case when left(${value}, 1) in (${formulaStarts}) and ${value} !~ ${signedInteger} then ${sql.lit(CSV_FORMULA_GUARD)} else '' end`;
  // The guard holds no character that calls for quotes, so the value alone decides.
  return sql<string>`case when ${value} ~ ${quotedCharacter}
    then '"' || ${guard} || replace(${value}, '"', '""') || '"'
    else ${guard} || ${value} end`;
}

/** A cell of `csvLineSql`: an expression of its text, which `csvCellSql` writes, or a `writtenCell`. */
export type CsvCellSql = Expression<string> | WrittenCell;

/** `csvLine(cells)`: the cells joined by commas, with the line end. */
export function csvLineSql(cells: readonly CsvCellSql[]): RawBuilder<string> {
  const written = cells.map((cell) => (cell instanceof WrittenCell ? cell.text : csvCellSql(cell)));
  return sql<string>`${sql.join(written, sql`|| ',' ||`)} || ${sql.lit(CSV_LINE_END)}`;
}

/**
 * An instant as `Date.prototype.toISOString()` writes it, and so as the API answers it: UTC,
 * milliseconds; null stays null. `MS` drops the microseconds as the drivers do when they read a
 * timestamp into a Date.
 */
export function isoInstantSql(instant: Expression<Date>): RawBuilder<string>;
export function isoInstantSql(instant: Expression<Date | null>): RawBuilder<string | null>;
export function isoInstantSql(instant: Expression<Date | null>): RawBuilder<string | null> {
  return sql<string | null>`to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** An absent value as the exports write it: an empty cell. */
export function emptyIfNull(value: Expression<string | null>): RawBuilder<string> {
  return sql<string>`coalesce(${value}, '')`;
}

class WrittenCell {
  constructor(readonly text: Expression<string>) {}
}

/**
 * A cell whose every possible value the writer leaves as it is (a fixed word, an ISO date): it is
 * written without the checks. Never for text a user typed.
 */
export function writtenCell(text: Expression<string>): WrittenCell {
  return new WrittenCell(text);
}
