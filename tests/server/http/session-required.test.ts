import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../server/http/errors.ts';
import { sessionIdOf } from '../../../server/identity/authenticate.ts';
import type { Principal } from '../../../server/identity/principal.ts';

/**
 * What only a signed-in session may do (sign-out, the storage secret, later passwords and API tokens)
 * is refused to a call made with an API token, so a leaked token cannot make itself another credential.
 */

const person = {
  userId: 'user-1',
  userName: 'ada',
  accessScope: 'account',
  primaryAccountId: 'account-1',
  permissions: new Set(),
} satisfies Omit<Principal, 'credential'>;

describe('sessionIdOf', () => {
  it('answers the session a person signed in with', () => {
    expect(sessionIdOf({ ...person, credential: { kind: 'session', sessionId: 'session-1' } })).toBe(
      'session-1',
    );
  });

  it('refuses an API token with 403 sessionRequired', () => {
    const call = () => sessionIdOf({ ...person, credential: { kind: 'apiToken', tokenId: 'token-1' } });
    expect(call).toThrow(ApiError);
    try {
      call();
    } catch (error) {
      expect((error as ApiError).status).toBe(403);
      expect((error as ApiError).detail).toEqual({ code: 'sessionRequired' });
    }
  });
});
