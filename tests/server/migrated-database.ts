import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated embedded database's files (`OpenDatabase.dump`). */
    migratedDatabaseFile: string;
    /** On PostgreSQL: a migrated database each test's database is copied from, by name. */
    postgresTemplate: string;
  }
}

/** A database name PostgreSQL takes unquoted: lower-case letters, digits and underscores. */
export function databaseName(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

/** The URL of another database on the server `url` names, with the same credentials. */
export function databaseUrl(url: string, database: string): string {
  const other = new URL(url);
  other.pathname = `/${database}`;
  return other.href;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Copies the template into a new database of that name. */
export function createDatabase(url: string, name: string, template?: string): Promise<void> {
  return withClient(url, async (client) => {
    await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  });
}

/**
 * Drops a database once the connections of whoever used it have ended: a pool's clients still count
 * for a moment after it closed, and PostgreSQL refuses to drop a database anyone is connected to. A
 * connection still open after five seconds is a leak, and the drop says so.
 */
export function dropDatabase(url: string, name: string): Promise<void> {
  return withClient(url, async (client) => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const { rows } = await client.query<{ connected: number }>(
        'select count(*)::int as connected from pg_stat_activity where datname = $1',
        [name],
      );
      if (rows[0]?.connected === 0) break;
      await sleep(100);
    }
    await client.query(`drop database if exists ${name}`);
  });
}

/**
 * On PostgreSQL, one database migrated once per run, which every test's database is copied from
 * (`CREATE DATABASE … TEMPLATE`, tests/server/test-app.ts): a copy takes a fraction of the 1.2 to 2 s
 * the migrations take on a fresh schema. CI's role may create databases for this (.ci/run).
 */
async function migratedTemplate(url: string): Promise<string> {
  const name = databaseName('template');
  await createDatabase(url, name);
  const database = await openDatabase({ databaseUrl: databaseUrl(url, name) });
  try {
    await migrateToLatest(database.db);
  } finally {
    // A template is copied only while nobody is connected to it.
    await database.close();
  }
  return name;
}

/**
 * Global setup of the server suites: one embedded database, created and migrated once per run, which
 * every test's database is opened from (tests/server/test-app.ts). Starting PGlite from files takes
 * about a third of creating a database, and the migrations run once instead of once per test. The
 * projects on PostgreSQL get a migrated template database instead.
 */
export default async function setup(project: TestProject) {
  const postgresUrl = project.config.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const template = await migratedTemplate(postgresUrl);
    project.provide('postgresTemplate', template);
    return () => dropDatabase(postgresUrl, template);
  }
  const database = await openDatabase({ inMemory: true });
  await migrateToLatest(database.db);
  const dump = await database.dump?.();
  await database.close();
  if (dump === undefined) throw new Error('The embedded database gave no dump.');
  const file = path.join(tmpdir(), `trust-console-migrated-${process.pid}-${project.name}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('migratedDatabaseFile', file);
  return () => rm(file, { force: true });
}

let migrated: Promise<Blob> | undefined;

/** The migrated database's files, read once per test file. */
export function migratedDatabase(file: string): Promise<Blob> {
  migrated ??= readFile(file).then((bytes) => new Blob([bytes]));
  return migrated;
}
