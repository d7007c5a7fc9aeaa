import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { apiPaths } from '../../contract/paths.ts';
import type { TokenResponse } from '../../contract/schemas/identity.ts';
import {
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  waitUntilServing,
} from '../../scripts/server-process.ts';
import { type OpenDatabase, openDatabase } from '../../server/db/connection.ts';
import { ensureSystemAccount } from '../../server/db/system-account.ts';
import { hashPassword } from '../../server/identity/passwords.ts';
import { insertUser } from '../../server/users/repository.ts';
import { ensureBuiltInRoles } from '../../server/users/roles.ts';
import { sharedCaKeyFile } from './shared-ca-key-file.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function startProcess(databaseUrl: string, dataDir: string): Promise<ServerProcess> {
  return startServerProcess(await freePort(), {
    DATABASE_URL: databaseUrl,
    CA_KEY_ENCRYPTION_KEY_FILE: sharedCaKeyFile(databaseUrl),
    DATA_DIR: dataDir,
    CONSOLE_DIST_DIR: path.join(dataDir, 'console'),
    TEST_DATABASE_URL: '',
  });
}

/** Two server processes on one PostgreSQL schema, with a system administrator signed in through the first. */
export interface ProcessPair {
  servers: ServerProcess[];
  /** The same schema, for the suite's own reads and changes. */
  database: OpenDatabase;
  /** The administrator's access token. */
  token: string;
  userId: string;
  accountId: string;
  close: () => Promise<void>;
}

const PASSWORD = 'Correct-Horse-42!';

/**
 * Starts two processes on a schema of their own in the run's database, as behind a load balancer,
 * and stores and signs in their administrator.
 */
export async function startProcessPair(baseUrl: string, prefix: string): Promise<ProcessPair> {
  const schema = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), `trust-console-${prefix}-`));
  const servers = await Promise.all([
    startProcess(url.href, path.join(dataDir, 'a')),
    startProcess(url.href, path.join(dataDir, 'b')),
  ]);
  // A process that did not start must not outlive the suite that failed on it.
  await Promise.all(servers.map((server) => waitUntilServing(server))).catch(async (error: unknown) => {
    await Promise.all(servers.map(stopServerProcess));
    throw error;
  });

  // Both processes have migrated the database by now; the user is stored as setup would store it.
  const database = await openDatabase({ databaseUrl: baseUrl, schema });
  const { db } = database;
  const now = new Date();
  const accountId = await ensureSystemAccount(db, now);
  const roles = await ensureBuiltInRoles(db, now);
  const userName = `admin-${randomUUID().slice(0, 8)}`;
  const userId = await insertUser(db, {
    userName,
    firstName: 'Multi',
    lastName: 'Process',
    email: `${userName}@example.com`,
    accessScope: 'system',
    primaryAccountId: accountId,
    passwordHash: await hashPassword(PASSWORD),
    roleIds: [roles.system_administrator],
    emailVerified: true,
    now,
  });
  const login = await fetch(`${servers[0]?.url}${apiPaths.identity.login}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: userName, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`Sign-in answered ${login.status}.`);
  const token = ((await login.json()) as TokenResponse).access_token;

  const close = async () => {
    await Promise.all(servers.map(stopServerProcess));
    await database.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { servers, database, token, userId, accountId, close };
}
