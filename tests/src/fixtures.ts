import type { Profile } from '../../contract/schemas/profile.ts';

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
    ...overrides,
  };
}
