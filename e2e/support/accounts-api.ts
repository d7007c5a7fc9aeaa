import { type APIRequestContext, expect } from '@playwright/test';
import { apiPaths } from '../../contract/paths.ts';
import type { LoginRequest } from '../../contract/schemas/identity.ts';
import type { Tenant, TenantCreateInput, TenantList } from '../../contract/schemas/tenants.ts';

/** `YYYY-MM-DD`, `days` after today as the server counts days (UTC). */
export function dateInDays(days: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** An access token for API calls, from the same sign-in the console uses. */
export async function signInThroughApi(
  request: APIRequestContext,
  credentials: LoginRequest,
): Promise<string> {
  const response = await request.post(apiPaths.identity.login, { data: credentials });
  expect(response.status(), await response.text()).toBe(200);
  const { access_token: accessToken } = (await response.json()) as { access_token: string };
  return accessToken;
}

/** Creates an account with its first administrator through POST tenants, as the token's user. */
export async function createAccountThroughApi(
  request: APIRequestContext,
  accessToken: string,
  account: TenantCreateInput,
): Promise<Tenant> {
  const response = await request.post(apiPaths.tenants.list, {
    data: account,
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Tenant;
}

/** How many active accounts the token's user sees, as the accounts list counts them. */
export async function countActiveAccountsThroughApi(
  request: APIRequestContext,
  accessToken: string,
): Promise<number> {
  const response = await request.get(`${apiPaths.tenants.list}?active=true&limit=1`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as TenantList).total;
}
