import { queryOptions } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { loginCustomizationSchema } from '../../../contract/schemas/identity.ts';
import { apiRequest } from '../../lib/api-client.ts';

export const sessionKeys = {
  loginCustomization: () => ['session', 'login-customization'] as const,
};

export function loginCustomizationQueryOptions() {
  return queryOptions({
    queryKey: sessionKeys.loginCustomization(),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.identity.loginCustomization, { schema: loginCustomizationSchema, signal }),
    staleTime: 5 * 60_000,
  });
}
