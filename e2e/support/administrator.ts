import { type APIRequestContext, expect } from '@playwright/test';
import { apiPaths } from '../../contract/paths.ts';
import type { SetupStatus, SetupUserRequest } from '../../contract/schemas/setup.ts';
import { issueLicence } from './licence.ts';

/** The first administrator: created through the screens by first-run, through the API otherwise. */
export const ADMINISTRATOR = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  username: 'ada',
  password: 'Analytical-Engine-1843',
} as const;

export const ADMINISTRATOR_DISPLAY_NAME = `${ADMINISTRATOR.firstName} ${ADMINISTRATOR.lastName}`;

/**
 * Installs a licence and the first administrator unless the server already has them: what a worker's
 * platform gets before its stories run (e2e/fixtures.ts), first-run's excepted.
 */
export async function ensureSetUp(request: APIRequestContext): Promise<void> {
  const statusResponse = await request.get(apiPaths.setup.status);
  expect(statusResponse.status()).toBe(200);
  const status = (await statusResponse.json()) as SetupStatus;
  if (status.administrator_exists) return;
  if (!status.licence_installed) {
    const licence = await request.post(apiPaths.setup.licence, { data: { body: await issueLicence() } });
    expect(licence.status(), await licence.text()).toBe(201);
  }
  const user = await request.post(apiPaths.setup.user, {
    data: {
      first_name: ADMINISTRATOR.firstName,
      last_name: ADMINISTRATOR.lastName,
      email: ADMINISTRATOR.email,
      user_name: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
      repeatedPassword: ADMINISTRATOR.password,
    } satisfies SetupUserRequest,
  });
  expect(user.status(), await user.text()).toBe(201);
}
