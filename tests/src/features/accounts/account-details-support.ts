import { afterEach, vi } from 'vitest';
import type { FeatureFlag } from '../../../../contract/feature-flags.ts';
import { ACCOUNT_FEATURES, type AccountFeatureId } from '../../../../contract/licences.ts';
import type { PermissionName } from '../../../../contract/permissions.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { Tenant } from '../../../../contract/schemas/tenants.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, customerFixture, profileFixture } from '../../fixtures.ts';
import { json, mockApi, signedInHandlers } from '../../support.tsx';

// Toasts live in one module-level queue; each test starts without the previous test's notices.
afterEach(() => toaster.remove());

/** Shared by the account details, edit and create suites. */
export const BASE = '/account/ui-api/v1';
export const PARTNER_ID = '6f4a8c2e-9d1b-4a7f-b3e5-2c8d0f6a9b1e';

export const SYSTEM_ADMINISTRATOR: readonly PermissionName[] = [
  'VIEW_ACCOUNT',
  'MANAGE_ACCOUNT',
  'VIEW_ORGANIZATION',
  'MANAGE_ORGANIZATION',
  'MANAGE_PERMISSION',
  // The licences section shows the applications whose licence permission is held.
  'VIEW_CM_LICENSE',
  'MANAGE_CM_LICENSE',
  'VIEW_DSM_LICENSE',
  'MANAGE_DSM_LICENSE',
];

/** The same customer, linked to an external identity product that manages it. */
export function linkedCustomerFixture(overrides: Partial<Tenant> = {}): Tenant {
  return customerFixture({
    federation_status: 'linked',
    federation_provider: 'OneLogin',
    federated_account_id: 'ol-4711',
    federated_account_name: 'Example Corp (OneLogin)',
    federated_account_details_url: 'https://identity.example.com/accounts/4711',
    has_onelogin_id: true,
    ...overrides,
  });
}

type Handlers = Parameters<typeof mockApi>[0];

interface AccountsApiOptions {
  permissions?: readonly PermissionName[];
  profile?: Profile;
  featureFlags?: Partial<Record<FeatureFlag, boolean>>;
  /** GET tenant/{CUSTOMER_ID}; later answers replace it through `extra`. */
  account?: Tenant;
  extra?: Handlers;
}

/** A signed-in user and the platform API answering as the account screens need; `extra` adds or replaces answers. */
export function accountsApi({
  permissions = SYSTEM_ADMINISTRATOR,
  profile = profileFixture(),
  featureFlags = {},
  account = customerFixture(),
  extra = {},
}: AccountsApiOptions = {}) {
  const flags = { partner_accounts: true, partner_scope: true, federated_info: true, ...featureFlags };
  return mockApi({
    ...signedInHandlers(profile, permissions),
    [`GET ${BASE}/feature-flag/features`]: () =>
      json({ items: Object.entries(flags).map(([name, enabled]) => ({ name, enabled })), total: 3 }),
    [`GET ${BASE}/tenant/${account.id}`]: () => json(account),
    [`GET ${BASE}/organizations`]: () => json({ items: [], total: 0 }),
    [`GET ${BASE}/features/account/${account.id}`]: () => json(accountFeaturesFixture()),
    // The licences section and its history rail (tests/src/features/licences).
    [`GET ${BASE}/account/${account.id}/licenses`]: () => json({ items: [] }),
    [`GET ${BASE}/license/limit/${account.id}/history`]: () => json({ items: [], total: 0 }),
    [`GET ${BASE}/license/limit/${account.id}/history-details`]: () => json({ items: [], total: 0 }),
    ...extra,
  });
}

/** GET features/account/{id}: every catalogue feature at its default, changeable, version 3. */
export function accountFeaturesFixture(
  overrides: Partial<Record<AccountFeatureId, { enabled: boolean; endDate?: string | null }>> = {},
  canEdit = true,
) {
  return {
    items: ACCOUNT_FEATURES.map((feature) => ({
      featureId: feature.id,
      appCode: feature.app,
      enabled: overrides[feature.id]?.enabled ?? feature.defaultFeature,
      defaultFeature: feature.defaultFeature,
      displayOrder: feature.displayOrder,
      endDate: overrides[feature.id]?.endDate ?? null,
    })),
    canEdit,
    version: 3,
  };
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** A partner administrator whose primary account is PARTNER_ID. */
export function partnerProfile(): Profile {
  return profileFixture({
    access_scope: 'partner',
    primary_account_id: PARTNER_ID,
    accounts: [{ id: PARTNER_ID, display_name: 'Partner Ltd', active: true, service_period: { to: null } }],
  });
}

/**
 * jsdom has no layout: the router scrolls to a `#section` with scrollIntoView, which jsdom lacks.
 * Recorded so a test can tell that the page asked for it.
 */
export function stubScrollIntoView() {
  const scrollIntoView = vi.fn();
  Element.prototype.scrollIntoView = scrollIntoView;
  return scrollIntoView;
}

export { ACCOUNT_ID };
