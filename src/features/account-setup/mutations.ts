import { apiPaths } from '../../../contract/paths.ts';
import { linkHolderSchema, type PasswordReset, type UserVerify } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';

/*
 * The calls of the pages a mailed link opens. They are public form submissions without a session,
 * made through the form kit like sign-in's, so these pages load no query library (decision 015).
 */

/**
 * POST user/{id}/verify/holder: the user name of the link, which its page shows instead of asking
 * for it. Spends nothing.
 */
export function linkHolder(userId: string, code: string) {
  return apiRequest('POST', apiPaths.users.verifyHolder(userId), {
    body: { verification_code: code },
    schema: linkHolderSchema,
  });
}

/** POST user/{id}/verify: the invitation's first password, or the current one for a new address. */
export function verifyAccount(userId: string, request: UserVerify) {
  return apiRequest('POST', apiPaths.users.verify(userId), { body: request });
}

/** POST user/{id}/reset-password: a new password through the mailed reset code. */
export function resetPassword(userId: string, request: PasswordReset) {
  return apiRequest('POST', apiPaths.users.resetPassword(userId), { body: request });
}
