import { apiPaths } from '../../../contract/paths.ts';
import type { ApiTokenCreated } from '../../../contract/schemas/api-tokens.ts';
import { call } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/** Makes an API token for `userId` with the session `token`; fails the test unless it is made. */
export async function createToken(
  harness: TestApp,
  session: string,
  userId: string,
  body: { name?: string; end_date?: string | null } = {},
): Promise<ApiTokenCreated> {
  const response = await call(harness, 'POST', apiPaths.users.apiTokens(userId), {
    token: session,
    body: {
      name: body.name ?? `Token ${Math.random().toString(36).slice(2, 8)}`,
      end_date: body.end_date ?? null,
    },
  });
  if (response.status !== 201)
    throw new Error(`Token creation answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ApiTokenCreated;
}
