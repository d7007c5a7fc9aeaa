import { afterEach } from 'vitest';
import type { PermissionName } from '../../../../contract/permissions.ts';
import type { Contact } from '../../../../contract/schemas/organizations.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import type { Tenant } from '../../../../contract/schemas/tenants.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { customerFixture, ORGANIZATION_ID, organizationFixture, profileFixture } from '../../fixtures.ts';
import { json, mockApi, signedInHandlers } from '../../support.tsx';

// Toasts live in one module-level queue; each test starts without the previous test's notices.
afterEach(() => toaster.remove());

export const CONTACT_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
export const BASE = '/account/ui-api/v1';

export const READER: readonly PermissionName[] = ['VIEW_ACCOUNT', 'VIEW_ORGANIZATION'];
export const MANAGER: readonly PermissionName[] = [
  'VIEW_ACCOUNT',
  'VIEW_ORGANIZATION',
  'MANAGE_ORGANIZATION',
];

export function contactFixture(overrides: Partial<Contact> = {}): Contact {
  return {
    id: CONTACT_ID,
    organization_id: ORGANIZATION_ID,
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    phone: '',
    title: 'Security officer',
    type: 'technical',
    version: 1,
    ...overrides,
  };
}

/** An account the user is not a member of, as GET tenant/{id} answers for a system administrator. */
export function tenantFixture(id: string, displayName: string): Tenant {
  return customerFixture({ id, name: displayName, display_name: displayName, primary_account_id: id });
}

type Handlers = Parameters<typeof mockApi>[0];

/**
 * A signed-in user with the given permissions, and the platform API answering as it does for the
 * organization screens; `extra` adds or replaces answers. Every query string is kept for assertions.
 */
export function organizationsApi(
  permissions: readonly PermissionName[],
  extra: Handlers = {},
  profile: Profile = profileFixture(),
) {
  const urls: URL[] = [];
  const organization = organizationFixture();
  const contact = contactFixture();
  const api = mockApi({
    ...signedInHandlers(profile, permissions),
    [`GET ${BASE}/organizations`]: ({ url }) => {
      urls.push(url);
      return json({ items: [organization], total: 1 });
    },
    [`GET ${BASE}/organizations/${ORGANIZATION_ID}`]: () => json(organization),
    [`GET ${BASE}/organizations/${ORGANIZATION_ID}/contacts`]: () => json({ items: [contact], total: 1 }),
    [`GET ${BASE}/organizations/${ORGANIZATION_ID}/contacts/${CONTACT_ID}`]: () => json(contact),
    ...extra,
  });
  return { ...api, urls };
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}
