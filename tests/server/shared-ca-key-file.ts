import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The CA key-encryption key every server process on one database shares (a server on PostgreSQL
 * refuses to start without one): a file of the temporary directory named after the database. Used
 * by the suites that start real processes and by the benchmark.
 */
export function sharedCaKeyFile(databaseUrl: string): string {
  const file = path.join(
    tmpdir(),
    `trust-console-ca-kek-${createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16)}.key`,
  );
  try {
    writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return file;
}
