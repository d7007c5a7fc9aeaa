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
import { WriteObserver } from './write-observer.ts';

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

/** What a listener is told: each notification's payload, and that it may have missed some. */
export interface NotificationHandlers {
  notified: (payload: string) => void;
  /** The listening connection failed or closed: notifications from now on may be missed. */
  lost: () => void;
}

/** Listens to `channel` on a connection of its own; answers how to stop. Every process sees every notification. */
export type NotificationSource = (
  channel: string,
  handlers: NotificationHandlers,
) => Promise<() => Promise<void>>;

/** How a process learns that data changed: its own statements, and notifications from anyone. */
export interface ChangeFeed {
  /** Statements of this process that may change data, at their start and their end. */
  writes: WriteObserver;
  /** Notifications (PostgreSQL's NOTIFY), sent by any process when its transaction commits. */
  listen: NotificationSource;
}

const changeFeeds = new WeakMap<Kysely<Database>, ChangeFeed>();

/** The change feed of a database opened by `openDatabase`; undefined for a Kysely instance made otherwise. */
export function changeFeedOf(db: Kysely<Database>): ChangeFeed | undefined {
  return changeFeeds.get(db);
}

/**
 * A notification source whose listeners all stop when the database closes (`stopAll`), so no
 * listening connection outlives it.
 */
/** `db` with its change feed registered; closing it stops its listeners before the database. */
function withChangeFeed(
  db: Kysely<Database>,
  writes: WriteObserver,
  notifications: ReturnType<typeof closingWithDatabase>,
): OpenDatabase {
  changeFeeds.set(db, { writes, listen: notifications.source });
  return {
    db,
    close: async () => {
      await notifications.stopAll();
      await db.destroy();
    },
  };
}

function closingWithDatabase(listen: NotificationSource) {
  const stops = new Set<() => Promise<void>>();
  let closed = false;
  const source: NotificationSource = async (channel, handlers) => {
    const stop = await listen(channel, handlers);
    // The database closed while the connection was being made.
    if (closed) {
      await stop();
      throw new Error('The database is closed.');
    }
    const stopOnce = async () => {
      if (stops.delete(stopOnce)) await stop();
    };
    stops.add(stopOnce);
    return stopOnce;
  };
  const stopAll = async () => {
    closed = true;
    await Promise.all([...stops].map((stop) => stop()));
  };
  return { source, stopAll };
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
  const writes = new WriteObserver();
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite), plugins: [writes] });
  // One embedded backend: a notification is delivered as the statement that sent it completes.
  const notifications = closingWithDatabase(async (channel, { notified }) => {
    const unlisten = await pglite.listen(channel, notified);
    return () => unlisten();
  });
  return {
    ...withChangeFeed(db, writes, notifications),
    dump: () => pglite.dumpDataDir('none'),
  };
}

/**
 * Connections each server process keeps to PostgreSQL. A list request needs one for one statement
 * (decision 024, "Throughput at fifty clients"), and PostgreSQL can run only as many statements at
 * once as it has cores; more connections only queue inside it. Measured with fifty clients on the
 * accounts list against PostgreSQL on two cores: 4, 10 and 20 gave the same requests per second
 * within the noise, 20 a little more CPU per request. Ten (pg's default) also leaves room for a slow
 * export or a transaction beside the lists.
 */
const POOL_SIZE = 10;

function openPostgres(databaseUrl: string, schema: string | undefined): OpenDatabase {
  const connection = {
    connectionString: databaseUrl,
    types: pgTypes,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  };
  const pool = new pg.Pool({ ...connection, max: POOL_SIZE });
  const writes = new WriteObserver();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [writes] });
  const notifications = closingWithDatabase(async (channel, { notified, lost }) => {
    // Outside the pool: LISTEN holds its connection for as long as it listens.
    const client = new pg.Client({ ...connection, keepAlive: true });
    let stopping = false;
    const onLost = () => {
      if (!stopping) lost();
    };
    client.on('notification', (message) => {
      if (message.channel === channel) notified(message.payload ?? '');
    });
    client.on('error', onLost);
    client.on('end', onLost);
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      stopping = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    return async () => {
      stopping = true;
      await client.end();
    };
  });
  enableCopyOut(db, pool);
  return withChangeFeed(db, writes, notifications);
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
