import type { Enrollment } from '../../../../contract/schemas/enrollments.ts';
import { ACCOUNT_ID } from '../../fixtures.ts';

export const ENROLLMENT_ID = '6b2d9f4e-1c3a-4e5b-8d7f-9a0b1c2d3e4f';
export const PROFILE_ID = '2e4f6a8b-0c1d-4e3f-a5b7-c9d1e3f5a7b9';

/** A pending enrollment of a device of ACCOUNT_ID; `overrides` make the others. */
export function enrollment(overrides: Partial<Enrollment> = {}): Enrollment {
  return {
    id: ENROLLMENT_ID,
    account_id: ACCOUNT_ID,
    account_name: 'Example Corp',
    seat: {
      id: 'seat-1',
      account_id: ACCOUNT_ID,
      kind: 'device',
      user_id: null,
      name: 'Lab laptop 7',
      email: 'tech@example.com',
      created_at: '2026-11-20T09:00:00.000Z',
    },
    profile_id: PROFILE_ID,
    profile_name: 'Laptops',
    status: 'pending',
    code_expires_at: '2026-11-27T09:00:00.000Z',
    failed_attempts: 2,
    enrollment_method: null,
    keystore_type: null,
    certificate_id: null,
    created_by: null,
    created_at: '2026-11-20T09:00:00.000Z',
    issued_at: null,
    redeemed_at: null,
    client_auth: null,
    version: 4,
    ...overrides,
  };
}
