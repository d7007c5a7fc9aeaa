import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../../contract/csv.ts';
import type { OpenDatabase } from '../../../server/db/connection.ts';
import { copyOutLines, inlineParameters } from '../../../server/db/copy-out.ts';
import { csvCellSql, csvLineSql, isoInstantSql } from '../../../server/db/csv-sql.ts';
import { openTestDatabase } from '../test-app.ts';

/**
 * The CSV writer's SQL form against the writer itself (contract/csv.ts), and the COPY stream the
 * PostgreSQL exports read it through (decision 027).
 */

let database: OpenDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Values a spreadsheet or a CSV reader trips on, and the ones next to them that must stay as they are. */
const TRICKY_VALUES = [
  '',
  'plain',
  'Smith, Jones',
  'say "hi"',
  '"',
  '""',
  'two\nlines',
  'two\r\nlines',
  'ends with a line break\n',
  '=1+1',
  '+49 30',
  '-Minus Corp',
  '@SUM(A1)',
  '\tTabbed',
  '\rReturn',
  '\nNewline first',
  'Csv;-ABS(1)',
  'Tab\t=1+1',
  '=HYPERLINK("https://evil.example", "x")',
  "'already quoted",
  'a=b',
  '+25',
  '-5',
  '-0',
  '+',
  '-',
  '+1.5',
  '-5\n',
  '+25 ',
  '1-2',
  '=',
  ' =leading space',
  'back\\slash',
  '\\.',
  'Müller & Søn',
  '株式会社テスト',
  '=株式',
  'emoji 🎉, "quoted"',
  '🎉',
  'NULL',
  '2026-03-10',
  '\u00a0nbsp',
  '\u0001control',
];

/** Each value through the SQL writer, in order; values go as one JSON parameter, which both databases read alike. */
async function cellsInSql(values: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ cell: string }>`
    select ${csvCellSql(sql.ref('v.value'))} as cell
    from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) with ordinality as v(value, position)
    order by v.position`.execute(database.db);
  return rows.map((row) => row.cell);
}

describe('the writer in SQL', () => {
  it('writes every cell as the writer does', async () => {
    expect(await cellsInSql(TRICKY_VALUES)).toEqual(TRICKY_VALUES.map(csvCell));
  });

  it('writes a line as the writer does: cells joined by commas, CRLF at the end', async () => {
    const cells = ['=1+1', 'Smith, Jones', '', 'two\nlines', '株式会社'];
    const { rows } = await sql<{ line: string }>`
      select ${csvLineSql(cells.map((cell) => sql.val(cell)))} as line`.execute(database.db);
    expect(rows[0]?.line).toBe(csvLine(cells));
  });
});

describe('instants', () => {
  it('writes an instant as the driver reads it and toISOString writes it', async () => {
    const instants = [
      '2026-03-10 12:34:56.789999+00',
      '1999-12-31 23:59:59.0005+00',
      '2026-01-01 00:00:00+00',
      '2026-06-30 23:59:59.999+02',
      '2000-02-29 00:00:00.001+00',
    ];
    const { rows } = await sql<{ instant: Date; written: string }>`
      select v.value::timestamptz as instant, ${isoInstantSql(sql`v.value::timestamptz`)} as written
      from jsonb_array_elements_text(${JSON.stringify(instants)}::jsonb) as v(value)`.execute(database.db);
    expect(rows.map((row) => row.written)).toEqual(rows.map((row) => row.instant.toISOString()));
  });
});

describe('inlined parameters', () => {
  it('reads back every value as it was sent', async () => {
    const values = ["O'Brien", 'back\\slash', "\\'", 'ünï', '', '$1', 'a\nb'];
    const columns = values.map((value, index) => sql`${value}::text as ${sql.id(`c${index}`)}`);
    const compiled = sql`select ${sql.join(columns)}`.compile(database.db);
    const { rows } = await sql
      .raw<Record<string, string>>(inlineParameters(compiled.sql, compiled.parameters))
      .execute(database.db);
    expect(Object.values(rows[0] ?? {})).toEqual(values);
  });

  it('writes numbers that keep their sign after an operator', async () => {
    const written = inlineParameters('select 10 - $1 as difference, $2 as whole', [-5, 2.5]);
    const { rows } = await sql.raw<{ difference: string; whole: string }>(written).execute(database.db);
    expect(rows.map((row) => [Number(row.difference), Number(row.whole)])).toEqual([[15, 2.5]]);
  });

  it('writes an instant as the instant it is', async () => {
    const written = inlineParameters(`select $1::timestamptz = '2026-03-10 13:34:56.789+01' as same`, [
      new Date('2026-03-10T12:34:56.789Z'),
    ]);
    const { rows } = await sql.raw<{ same: boolean }>(written).execute(database.db);
    expect(rows).toEqual([{ same: true }]);
  });

  it('refuses values it cannot write as a literal', () => {
    expect(() => inlineParameters('select $1', [new Date(Number.NaN)])).toThrow();
    expect(() => inlineParameters('select $1', [['an', 'array']])).toThrow();
    expect(() => inlineParameters('select $1', ['a\0b'])).toThrow();
  });
});

/** Everything `copyOutLines` streams for `query`, as text; null on PGlite, which has no COPY stream. */
async function copied(query: Parameters<typeof copyOutLines>[1]): Promise<string | null> {
  const chunks = copyOutLines(database.db, query);
  if (!chunks) return null;
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe('COPY', () => {
  it.skipIf(onPostgres)('is not there on PGlite', () => {
    expect(copyOutLines(database.db, database.db.selectNoFrom(sql<string>`''`.as('line')))).toBeNull();
  });

  it.runIf(onPostgres)('streams the lines the writer writes, byte for byte', async () => {
    const query = database.db
      .selectFrom(
        sql<{
          value: string;
          ordinality: number;
        }>`jsonb_array_elements_text(${JSON.stringify(TRICKY_VALUES)}::jsonb) with ordinality`.as('v'),
      )
      .select(csvLineSql([sql.ref('v.value'), sql.ref('v.value')]).as('line'))
      .orderBy(sql.ref('v.ordinality'));
    expect(await copied(query)).toBe(TRICKY_VALUES.map((value) => csvLine([value, value])).join(''));
  });

  it.runIf(onPostgres)('streams lines larger than its chunks, and more than it holds at once', async () => {
    // 3 MB in all (more than the 1 MB after which the socket pauses), one line of 200 KB of
    // two-byte characters across several 64 KB chunks.
    const query = database.db
      .selectFrom(sql<{ n: number }>`generate_series(1, 30000)`.as('n'))
      .select(
        sql<string>`case when n = 7 then repeat('ü', 100000) else lpad(n::text, 100, '.') end`.as('line'),
      )
      .orderBy(sql.ref('n'));
    const chunks = copyOutLines(database.db, query);
    let text = '';
    for await (const chunk of chunks ?? []) {
      text += Buffer.from(chunk).toString('latin1');
      // A slow reader, so the stream has to wait for it.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const expected = Array.from({ length: 30000 }, (_, index) =>
      index + 1 === 7 ? 'ü'.repeat(100000) : String(index + 1).padStart(100, '.'),
    ).join('');
    expect(Buffer.from(text, 'latin1').toString('utf8')).toBe(expected);
  });

  it.runIf(onPostgres)(
    'fails on the first read when the query fails, and the database stays usable',
    async () => {
      const failing = database.db
        .selectFrom(sql<{ n: number }>`generate_series(0, 3)`.as('n'))
        .select(sql<string>`(1 / n)::text`.as('line'));
      await expect(copied(failing)).rejects.toThrow(/division by zero/);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    },
  );

  it.runIf(onPostgres)('gives the connection back once the server is done, read or not', async () => {
    // More exports than the pool has connections, none read to the end (a client that reads only
    // the status): each finished on the server, so none holds a connection.
    const small = database.db.selectNoFrom(sql<string>`'one line'`.as('line'));
    const started = [];
    for (let n = 0; n < 12; n += 1) {
      const chunks = copyOutLines(database.db, small);
      expect(await chunks?.next()).toMatchObject({ done: false });
      started.push(chunks);
    }
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it.runIf(onPostgres)('lets a reader stop early, and the database stays usable', async () => {
    const query = database.db
      .selectFrom(sql<{ n: number }>`generate_series(1, 1000000)`.as('n'))
      .select(sql<string>`lpad(n::text, 100, '.')`.as('line'));
    for await (const chunk of copyOutLines(database.db, query) ?? []) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      break;
    }
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
