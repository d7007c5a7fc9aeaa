import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlatformLocale } from '../../../contract/locales.ts';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type LoginRequest,
  tokenResponseSchema,
  verifyUserResponseSchema,
} from '../../../contract/schemas/identity.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { licenceCheckQueryOptions } from '../../lib/licence-check.ts';
import { startSession } from '../../lib/session.ts';

export const sessionMutationKeys = {
  verifyUsername: ['session', 'verify-username'] as const,
  signIn: ['session', 'sign-in'] as const,
};

interface VerifyUsernameInput {
  username: string;
  state: string;
  language: PlatformLocale;
}

/** The username step (B-15): the identity service answers the next step and a new state. */
export function useVerifyUsername() {
  return useMutation({
    mutationKey: sessionMutationKeys.verifyUsername,
    meta: { errorToast: false },
    mutationFn: (input: VerifyUsernameInput) =>
      apiRequest('POST', apiPaths.identity.verifyUser, { body: input, schema: verifyUserResponseSchema }),
  });
}

/** The password step: keeps the token in memory, then checks the licence before going on. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: sessionMutationKeys.signIn,
    meta: { errorToast: false },
    mutationFn: async (credentials: LoginRequest) => {
      const tokens = await apiRequest('POST', apiPaths.identity.login, {
        body: credentials,
        schema: tokenResponseSchema,
      });
      startSession(tokens);
      return queryClient.fetchQuery(licenceCheckQueryOptions());
    },
  });
}
