import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { type Caller, callerWith } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/**
 * The callers of the authorization matrices of decision 018 §3.5, each signed in:
 * - system: the built-in system administrator;
 * - partner: the partner administrator of partner account P;
 * - account admin: the built-in account administrator of account A under P;
 * - account, all permissions: account scope in A holding every permission, so scope alone limits it;
 * - auditor: the built-in read-only auditor of A;
 * - no user permission: account scope in A with view account only, so reach is found and 403 follows.
 * Account B is under another partner Q: its users are foreign to everyone but the system scope.
 */
export const MATRIX_CALLERS = [
  'system',
  'partner',
  'account admin',
  'account, all permissions',
  'auditor',
  'no user permission',
] as const;
export type MatrixCaller = (typeof MATRIX_CALLERS)[number];

export async function matrixCallers(harness: TestApp): Promise<{
  callers: Record<MatrixCaller, Caller>;
  accountA: string;
  accountB: string;
}> {
  const partnerP = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  const partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  const accountA = await insertAccount(harness, { name: 'Account A', partnerAccountId: partnerP });
  const accountB = await insertAccount(harness, { name: 'Account B', partnerAccountId: partnerQ });
  const callers: Record<MatrixCaller, Caller> = {
    system: await signedInUser(harness, { accessScope: 'system' }),
    partner: await signedInUser(harness, { accessScope: 'partner', accountId: partnerP }),
    'account admin': await signedInUser(harness, { accessScope: 'account', accountId: accountA }),
    'account, all permissions': await callerWith(harness, {
      accessScope: 'account',
      accountId: accountA,
      permissions: PERMISSION_NAMES,
    }),
    auditor: await signedInUser(harness, {
      accessScope: 'account',
      accountId: accountA,
      roles: ['read_only_auditor'],
    }),
    'no user permission': await callerWith(harness, {
      accessScope: 'account',
      accountId: accountA,
      permissions: ['VIEW_ACCOUNT'],
    }),
  };
  return { callers, accountA, accountB };
}
