import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Organization } from '../../../contract/schemas/organizations.ts';
import type { ServerProcess } from '../../../scripts/server-process.ts';
import type { OpenDatabase } from '../../../server/db/connection.ts';
import { organizationFields } from '../organizations/requests.ts';
import { type ProcessPair, startProcessPair } from '../server-processes.ts';

/**
 * Two real server processes on one PostgreSQL database, as behind a load balancer: a key claimed by
 * one is known to the other, so the same change sent to both is made once.
 */

const baseUrl = process.env.TEST_DATABASE_URL;
/** Marks the request bodies, to show that no process writes one to its log. */
const BODY_MARKER = `Body-Marker-${randomUUID().slice(0, 8)}`;

describe.runIf(Boolean(baseUrl))('two server processes on one database', () => {
  let pair: ProcessPair | undefined;
  let database: OpenDatabase | undefined;
  let servers: ServerProcess[] = [];
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    pair = await startProcessPair(baseUrl ?? '', 'processes');
    ({ database, servers, token, accountId } = pair);
  }, 90_000);

  afterAll(() => pair?.close());

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
