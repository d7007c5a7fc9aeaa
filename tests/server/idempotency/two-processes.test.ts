import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { TokenResponse } from '../../../contract/schemas/identity.ts';
import type { Organization } from '../../../contract/schemas/organizations.ts';
import { type OpenDatabase, openDatabase } from '../../../server/db/connection.ts';
import { hashPassword } from '../../../server/identity/passwords.ts';
import { ensureSystemAccount } from '../../../server/setup/seed.ts';
import { insertUser } from '../../../server/users/repository.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { organizationFields } from '../organizations/requests.ts';

/**
 * Two real server processes on one PostgreSQL database, as behind a load balancer: a key claimed by
 * one is known to the other, so the same change sent to both is made once.
 */

const baseUrl = process.env.TEST_DATABASE_URL;
const PASSWORD = 'Correct-Horse-42!';
/** Marks the request bodies, to show that no process writes one to its log. */
const BODY_MARKER = `Body-Marker-${randomUUID().slice(0, 8)}`;

interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
}

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
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONSOLE_DIST_DIR: path.join(dataDir, 'console'),
      TEST_DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { url: `http://127.0.0.1:${port}`, child, output };
}

async function waitUntilServing(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 50_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) break;
    try {
      if ((await fetch(`${server.url}${apiPaths.locales}`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server at ${server.url} did not start:\n${server.output.join('')}`);
}

async function stopProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

describe.runIf(Boolean(baseUrl))('two server processes on one database', () => {
  // A schema of its own in the run's database, as every server suite uses: CI's role owns that
  // database but may not create others.
  const schema = `processes_${randomUUID().replaceAll('-', '')}`;
  let admin: pg.Client;
  let dataDir: string;
  let database: OpenDatabase | undefined;
  let servers: ServerProcess[] = [];
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = new URL(baseUrl ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    dataDir = await mkdtemp(path.join(tmpdir(), 'trust-console-processes-'));
    servers = await Promise.all([
      startProcess(url.href, path.join(dataDir, 'a')),
      startProcess(url.href, path.join(dataDir, 'b')),
    ]);
    await Promise.all(servers.map(waitUntilServing));

    // Both processes have migrated the database by now; the user is stored as setup would store it.
    database = await openDatabase({ databaseUrl: baseUrl ?? '', schema });
    const { db } = database;
    const now = new Date();
    accountId = await ensureSystemAccount(db, now);
    const roles = await ensureBuiltInRoles(db, now);
    const userName = `admin-${randomUUID().slice(0, 8)}`;
    await insertUser(db, {
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
    expect(login.status).toBe(200);
    token = ((await login.json()) as TokenResponse).access_token;
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopProcess));
    await database?.close();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  function create(server: ServerProcess | undefined, key: string, fields: object): Promise<Response> {
    if (!server) throw new Error('No server.');
    return fetch(`${server.url}${apiPaths.organizations.list}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': `"${key}"`,
      },
      body: JSON.stringify({ ...fields, account_id: accountId }),
    });
  }

  async function organizationsNamed(name: string): Promise<number> {
    if (!database) throw new Error('No database.');
    const row = await database.db
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.count;
  }

  it('makes a change sent to both at once exactly once', async () => {
    for (let round = 0; round < 10; round += 1) {
      const key = randomUUID();
      const fields = organizationFields({
        name: `Race ${round} ${randomUUID().slice(0, 8)}`,
        address: BODY_MARKER,
      });
      const [a, b] = await Promise.all([create(servers[0], key, fields), create(servers[1], key, fields)]);
      const answers = [a, b].map((response) => ({
        status: response.status,
        replayed: response.headers.get('Idempotency-Replayed') === 'true',
        retryAfter: response.headers.get('Retry-After'),
      }));
      const made = answers.filter((answer) => answer.status === 201 && !answer.replayed);
      expect(made).toHaveLength(1);
      const other = answers.find((answer) => answer !== made[0]);
      expect([
        { status: 201, replayed: true, retryAfter: null },
        { status: 409, replayed: false, retryAfter: '1' },
      ]).toContainEqual(other);
      expect(await organizationsNamed(fields.name)).toBe(1);
    }
  });

  it('replays on one process the answer another process stored', async () => {
    const key = randomUUID();
    const fields = organizationFields({ address: BODY_MARKER });
    const first = await create(servers[0], key, fields);
    expect(first.status).toBe(201);
    const created = (await first.json()) as Organization;

    const replayed = await create(servers[1], key, fields);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('Idempotency-Replayed')).toBe('true');
    expect(replayed.headers.get('ETag')).toBe(first.headers.get('ETag'));
    expect(replayed.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(await replayed.json()).toEqual(created);

    const different = await create(servers[1], key, { ...fields, city: 'Elsewhere' });
    expect(different.status).toBe(422);
    expect(await organizationsNamed(fields.name)).toBe(1);
  });

  it('hands out one storage secret, whichever process is asked first', async () => {
    const answers = await Promise.all(
      [...servers, ...servers].map(async (server) => {
        const response = await fetch(`${server.url}${apiPaths.identity.storageSecret}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { secret: string }).secret;
      }),
    );
    expect(new Set(answers).size).toBe(1);
  });

  it('writes no request body to the log', () => {
    for (const server of servers) expect(server.output.join('')).not.toContain(BODY_MARKER);
  });
});
