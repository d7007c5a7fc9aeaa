import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiTokenCreated } from '../../../contract/schemas/api-tokens.ts';
import type { ServerProcess } from '../../../scripts/server-process.ts';
import { addDays, utcDate } from '../../../server/dates.ts';
import type { OpenDatabase } from '../../../server/db/connection.ts';
import { type ProcessPair, startProcessPair } from '../server-processes.ts';

/**
 * Two real server processes on one PostgreSQL database, as behind a load balancer: a token revoked
 * through one, past its end date, or of a user disabled meanwhile is refused by both on the very next
 * request (escalation 13), since neither keeps anything about a token between requests; and neither
 * writes a token to its log.
 */

const baseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(Boolean(baseUrl))('API tokens across two server processes', () => {
  let pair: ProcessPair | undefined;
  let database: OpenDatabase | undefined;
  let servers: ServerProcess[] = [];
  let session: string;
  let userId: string;
  const values: string[] = [];

  beforeAll(async () => {
    pair = await startProcessPair(baseUrl ?? '', 'tokens');
    ({ database, servers, token: session, userId } = pair);
  }, 90_000);

  afterAll(async () => {
    // The log of either process never held a token made during the suite.
    const output = servers.flatMap((server) => server.output).join('');
    for (const value of values) expect(output).not.toContain(value);
    await pair?.close();
  });

  function serverUrl(index: number): string {
    const server = servers[index];
    if (!server) throw new Error('No server.');
    return server.url;
  }

  async function createToken(endDate: string | null = null): Promise<ApiTokenCreated> {
    const response = await fetch(`${serverUrl(0)}${apiPaths.users.apiTokens(userId)}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Token ${randomUUID().slice(0, 8)}`, end_date: endDate }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as ApiTokenCreated;
    values.push(created.value);
    return created;
  }

  /** What each process answers the token now: [first, second]. */
  async function statuses(value: string): Promise<number[]> {
    return Promise.all(
      [0, 1].map(
        async (index) =>
          (
            await fetch(`${serverUrl(index)}${apiPaths.users.list}`, {
              headers: { Authorization: `Bearer ${value}` },
            })
          ).status,
      ),
    );
  }

  function tokensTable() {
    if (!database) throw new Error('No database.');
    return database.db.updateTable('api_tokens');
  }

  it('refuses a token in both processes once it is revoked through one', async () => {
    const token = await createToken();
    expect(await statuses(token.value)).toEqual([200, 200]);
    const revoked = await fetch(`${serverUrl(0)}${apiPaths.users.apiToken(userId, token.id)}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${session}` },
    });
    expect(revoked.status).toBe(204);
    expect(await statuses(token.value)).toEqual([401, 401]);
  });

  it('refuses a token in both processes once its end date has passed', async () => {
    const token = await createToken(addDays(utcDate(new Date()), 1));
    expect(await statuses(token.value)).toEqual([200, 200]);
    await tokensTable()
      .set({ end_date: addDays(utcDate(new Date()), -1) })
      .where('id', '=', token.id)
      .execute();
    expect(await statuses(token.value)).toEqual([401, 401]);
  });

  it('refuses a token in both processes while its user is disabled', async () => {
    if (!database) throw new Error('No database.');
    const token = await createToken();
    expect(await statuses(token.value)).toEqual([200, 200]);
    await database.db.updateTable('users').set({ active: false }).where('id', '=', userId).execute();
    try {
      expect(await statuses(token.value)).toEqual([401, 401]);
    } finally {
      await database.db.updateTable('users').set({ active: true }).where('id', '=', userId).execute();
    }
    expect(await statuses(token.value)).toEqual([200, 200]);
  });
});
