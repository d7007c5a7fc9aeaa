import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated embedded database's files (`OpenDatabase.dump`). */
    migratedDatabaseFile: string;
  }
}

/**
 * Global setup of the server suites: one embedded database, created and migrated once per run, which
 * every test's database is opened from (tests/server/test-app.ts). Starting PGlite from files takes
 * about a third of creating a database, and the migrations run once instead of once per test.
 */
export default async function setup(project: TestProject) {
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
