import { randomUUID } from 'node:crypto';
import { DEFAULT_PLATFORM_LOCALE } from '../../../contract/locales.ts';
import type { FederationStatus } from '../../../contract/schemas/tenants.ts';
import { signIn } from '../identity/requests.ts';
import type { Caller } from '../organizations/requests.ts';
import type { TestApp, TestUserOptions } from '../test-app.ts';

/** Fixtures of the accounts suites; requests go through the organization suites' `call`. */

/** The suites' clock: a fixed day, so end dates and "ends within" filters are exact. */
export const TODAY = '2026-03-10';
export const fixedClock = () => new Date(`${TODAY}T12:00:00Z`);

export function daysFromToday(days: number): string {
  return new Date(Date.parse(`${TODAY}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export interface AccountFixture {
  name?: string;
  type?: 'standard' | 'partner';
  partnerAccountId?: string | null;
  active?: boolean;
  friendlyIdentifier?: string;
  serviceFrom?: string;
  serviceTo?: string | null;
  federation?: {
    status: FederationStatus;
    provider?: string;
    accountId?: string;
    accountName?: string;
    detailsUrl?: string;
  };
}

/** Inserts an account as the platform stores one; answers its id. */
export async function insertAccount(harness: TestApp, fixture: AccountFixture = {}): Promise<string> {
  const id = randomUUID();
  const name = fixture.name ?? `Account ${id.slice(0, 8)}`;
  const linked = fixture.federation?.status === 'linked';
  await harness.deps.db
    .insertInto('accounts')
    .values({
      id,
      name,
      display_name: name,
      active: fixture.active ?? true,
      friendly_identifier: fixture.friendlyIdentifier ?? `fi-${id}`,
      type: fixture.type ?? 'standard',
      partner_account_id: fixture.partnerAccountId ?? null,
      locale: DEFAULT_PLATFORM_LOCALE,
      service_from: fixture.serviceFrom ?? daysFromToday(-30),
      service_to: fixture.serviceTo === undefined ? daysFromToday(365) : fixture.serviceTo,
      federation_status: fixture.federation?.status ?? null,
      federation_provider: linked ? (fixture.federation?.provider ?? 'OneLogin') : null,
      federated_account_id: linked ? (fixture.federation?.accountId ?? `ext-${id.slice(0, 8)}`) : null,
      federated_account_name: linked ? (fixture.federation?.accountName ?? name) : null,
      federated_account_details_url: linked
        ? (fixture.federation?.detailsUrl ?? `https://identity.example.com/accounts/${id}`)
        : null,
      created_at: harness.deps.now(),
      updated_at: harness.deps.now(),
    })
    .execute();
  return id;
}

/** A signed-in user with the built-in role of its scope unless `options` says otherwise. */
export async function signedInUser(harness: TestApp, options: TestUserOptions = {}): Promise<Caller> {
  const user = await harness.createUser(options);
  return { ...user, token: (await signIn(harness, user)).accessToken };
}

export const GOOD_PASSWORD = 'Correct-Horse-42!';

/** A valid POST tenants body; override what a test is about. */
export function newTenantForm(overrides: Record<string, unknown> = {}) {
  const userName = `admin-${randomUUID().slice(0, 8)}`;
  return {
    name: 'Northwind Traders',
    locale: 'en_US',
    type: 'standard',
    service_period: { to: daysFromToday(365) },
    administrator: {
      first_name: 'Nancy',
      last_name: 'Davolio',
      email: `${userName}@example.com`,
      user_name: userName,
      password: GOOD_PASSWORD,
      repeatedPassword: GOOD_PASSWORD,
    },
    ...overrides,
  };
}
