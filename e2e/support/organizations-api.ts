import { type APIRequestContext, expect } from '@playwright/test';
import { apiPaths } from '../../contract/paths.ts';
import type { LoginRequest } from '../../contract/schemas/identity.ts';
import type { Organization, OrganizationFieldsInput } from '../../contract/schemas/organizations.ts';
import type { Profile } from '../../contract/schemas/profile.ts';
import { signInThroughApi } from './accounts-api.ts';
import { ACCESS_TOKEN_TTL_SECONDS } from './environment.ts';

function bearer(accessToken: string): Record<string, string> {
  return { Authorization: `Bearer ${accessToken}` };
}

/**
 * Access tokens of one user for API calls spread over a scenario: the scenarios' server issues
 * short-lived tokens, so a new one is signed in for once the last one is close to expiring.
 */
export function tokensOf(request: APIRequestContext, credentials: LoginRequest): () => Promise<string> {
  const lifetimeMs = (ACCESS_TOKEN_TTL_SECONDS - 5) * 1000;
  let token = '';
  let renewAt = 0;
  return async () => {
    if (Date.now() >= renewAt) {
      renewAt = Date.now() + lifetimeMs;
      token = await signInThroughApi(request, credentials);
    }
    return token;
  };
}

/** The fields of a new organization named `name`. */
export function organizationFields(name: string) {
  return { name, address: '1 Quay Street', city: 'Harbourtown', country: 'DE' } as const;
}

/**
 * One organization per scenario of a spec, so each starts from a version it knows: made in the
 * spec's `beforeAll`, found by the scenario's key.
 */
export class ScenarioOrganizations {
  readonly #created = new Map<string, Organization>();

  async create(
    request: APIRequestContext,
    accessToken: string,
    accountId: string,
    keys: readonly string[],
    nameOf: (key: string) => string,
  ): Promise<void> {
    for (const key of keys) {
      this.#created.set(
        key,
        await createOrganizationThroughApi(request, accessToken, accountId, organizationFields(nameOf(key))),
      );
    }
  }

  get(key: string): Organization {
    const found = this.#created.get(key);
    if (!found) throw new Error(`No organization ${key} was created.`);
    return found;
  }
}

/** The token's user as the console sees them: their id and primary account among the rest. */
export async function profileThroughApi(request: APIRequestContext, accessToken: string): Promise<Profile> {
  const response = await request.get(apiPaths.profile, { headers: bearer(accessToken) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Profile;
}

/** Creates an organization in `accountId` through POST organizations. */
export async function createOrganizationThroughApi(
  request: APIRequestContext,
  accessToken: string,
  accountId: string,
  fields: OrganizationFieldsInput,
): Promise<Organization> {
  const response = await request.post(apiPaths.organizations.list, {
    data: { ...fields, account_id: accountId },
    headers: bearer(accessToken),
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Organization;
}

/** The organization as the server has it now. */
export async function organizationThroughApi(
  request: APIRequestContext,
  accessToken: string,
  id: string,
): Promise<Organization> {
  const response = await request.get(apiPaths.organizations.byId(id), { headers: bearer(accessToken) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Organization;
}

/** Changes fields of the organization on the version it has now, as another client would. */
export async function editOrganizationThroughApi(
  request: APIRequestContext,
  accessToken: string,
  id: string,
  change: Partial<OrganizationFieldsInput>,
): Promise<Organization> {
  const { name, address, address2, city, state, zip_code, country, phone, version } =
    await organizationThroughApi(request, accessToken, id);
  const response = await request.put(apiPaths.organizations.byId(id), {
    data: { name, address, address2, city, state, zip_code, country, phone, ...change },
    headers: { ...bearer(accessToken), 'If-Match': `"${version}"` },
  });
  expect(response.status(), await response.text()).toBe(204);
  return organizationThroughApi(request, accessToken, id);
}
