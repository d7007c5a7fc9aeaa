import type { Organization } from '../../contract/schemas/organizations.ts';
import type { Profile } from '../../contract/schemas/profile.ts';
import type { Tenant } from '../../contract/schemas/tenants.ts';

export const ACCOUNT_ID = '8a3f9a3e-6c1b-4d2e-9f51-0c8f3b1d2a10';
export const OTHER_ACCOUNT_ID = '1d7c2b4e-3f5a-4b6c-8d9e-0f1a2b3c4d5e';

export function profileFixture(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'c0a80101-0000-4000-8000-000000000001',
    access_scope: 'system',
    primary_account_id: ACCOUNT_ID,
    accounts: [
      { id: ACCOUNT_ID, display_name: 'System Account', active: true, service_period: { to: null } },
    ],
    permissions: [],
    has_onelogin_id: false,
    onelogin_url: null,
    locale: 'en_US',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    user_name: 'ada',
    date_format: null,
    applications: [],
    phone: null,
    aliases: {},
    saml_username: null,
    oidc_username: null,
    email_verified: true,
    default_application: null,
    version: 1,
    ...overrides,
  };
}

export const CUSTOMER_ID = '3c9e2f7a-1b4d-4e8f-a2c6-7d5b9e0f1a2b';

/** A standard customer account as GET tenant/{id} answers it. */
export function customerFixture(overrides: Partial<Tenant> = {}): Tenant {
  return {
    id: CUSTOMER_ID,
    name: 'Example Corp',
    display_name: 'Example Corp',
    active: true,
    friendly_identifier: 'example-corp',
    service_period: { from: '2026-01-15', to: '2099-06-30' },
    locale: 'de_DE',
    type: 'standard',
    system_account: false,
    partner_account_id: null,
    partner_account_name: null,
    federated_account_id: null,
    federation_status: null,
    federated_account_details_url: null,
    federated_account_name: null,
    federation_provider: null,
    has_onelogin_id: false,
    can_account_be_unlinked: false,
    mfa_enabled: false,
    can_edit_mfa: true,
    allow_user_creation_via_sso: false,
    has_dsm_license: false,
    applications: [],
    version: 3,
    ...overrides,
  };
}

export const ORGANIZATION_ID = '5b1f0c2a-7d3e-4f6a-9b8c-1d2e3f4a5b6c';

/** An organization of the signed-in user's account as GET organizations/{id} answers it. */
export function organizationFixture(overrides: Partial<Organization> = {}): Organization {
  return {
    id: ORGANIZATION_ID,
    account_id: ACCOUNT_ID,
    name: 'Acme Trust GmbH',
    address: 'Hauptstraße 1',
    address2: '',
    city: 'Berlin',
    state: '',
    zip_code: '10115',
    country: 'DE',
    phone: '+49 30 1234567',
    contacts_count: 1,
    version: 1,
    ...overrides,
  };
}
