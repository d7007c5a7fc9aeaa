import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { ServerConfig } from '../config.ts';
import { enableCopyOut } from './copy-out.ts';
import { PgliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

/** Where the platform database lives: exactly one of the three. */
export type DatabaseLocation =
  | {
      inMemory: true;
      /** Files of another embedded database to start from (`OpenDatabase.dump`); empty when absent. */
      from?: Blob;
    }
  | { dataDir: string }
  | {
      databaseUrl: string;
      /** Schema every connection uses (tests give each run its own); the server's default otherwise. */
      schema?: string;
    };

export interface OpenDatabase {
  db: Kysely<Database>;
  close: () => Promise<void>;
  /**
   * The embedded database's files as one archive, to open copies of it (tests clone one migrated
   * database instead of creating and migrating one per test); absent on PostgreSQL.
   */
  dump?: () => Promise<Blob>;
}

/**
 * `bigint` and `count(*)` come back as numbers on both drivers (pg answers strings, PGlite numbers
 * or bigints); a value beyond 2^53 would be silently rounded, so it fails loudly instead.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`int8 value ${text} exceeds the safe integer range.`);
  return value;
}

/** `date` columns stay `YYYY-MM-DD` strings: a calendar day has no time zone to convert. */
function keepText(text: string): string {
  return text;
}

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8) return parseInt8;
    if (oid === pg.types.builtins.DATE) return keepText;
    return format === undefined ? pg.types.getTypeParser(oid) : pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** The directory of the embedded database inside the data directory. */
export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

async function openPglite(dataDir: string | null, from?: Blob): Promise<OpenDatabase> {
  if (dataDir !== null) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const options = {
    parsers: { [pgliteTypes.INT8]: parseInt8, [pgliteTypes.DATE]: keepText },
    // Trigram indexes keep the accounts list's substring filters fast (migration 20261121T0900).
    extensions: { pg_trgm },
    ...(from === undefined ? {} : { loadDataDir: from }),
  };
  const pglite = dataDir === null ? new PGlite(options) : new PGlite(pgliteDirectory(dataDir), options);
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite) });
  return { db, close: () => db.destroy(), dump: () => pglite.dumpDataDir('none') };
}

function openPostgres(databaseUrl: string, schema: string | undefined): OpenDatabase {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    types: pgTypes,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  enableCopyOut(db, pool);
  return { db, close: () => db.destroy() };
}

function isServerConfig(target: ServerConfig | DatabaseLocation): target is ServerConfig {
  return 'consoleDistDir' in target;
}

/** Opens PostgreSQL when a URL is configured, otherwise the embedded PGlite database. */
export async function openDatabase(target: ServerConfig | DatabaseLocation): Promise<OpenDatabase> {
  if (isServerConfig(target)) {
    return target.databaseUrl === null
      ? openPglite(target.dataDir)
      : openPostgres(target.databaseUrl, undefined);
  }
  if ('inMemory' in target) return openPglite(null, target.from);
  if ('dataDir' in target) return openPglite(target.dataDir);
  if (target.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(target.schema)) {
    throw new Error(`Schema name "${target.schema}" must be a lower-case SQL identifier.`);
  }
  return openPostgres(target.databaseUrl, target.schema);
}
