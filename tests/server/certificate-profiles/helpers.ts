import { CLIENT_AUTH_POLICY, type ProfilePolicy } from '../../../contract/certificate-policy.ts';
import { insertTestProfile as insertCaTestProfile } from '../ca/helpers.ts';
import type { TestApp } from '../test-app.ts';

/** A valid policy (an EC-only variant of the client-authentication one), with `overrides` on top. */
export function policy(overrides: Partial<ProfilePolicy> = {}): ProfilePolicy {
  return {
    ...CLIENT_AUTH_POLICY,
    subject: { ...CLIENT_AUTH_POLICY.subject },
    key_types: { rsa: [], ec: ['P-256'] },
    ...overrides,
  };
}

let counter = 0;
export const uniqueProfileName = () => `Profile ${++counter} ${Math.random().toString(36).slice(2, 8)}`;

/** A profile of `accountId` written straight to the table; answers its id. */
export async function insertTestProfile(
  harness: TestApp,
  accountId: string,
  name = uniqueProfileName(),
): Promise<string> {
  return (await insertCaTestProfile(harness, accountId, { name, policy: policy() })).id;
}
