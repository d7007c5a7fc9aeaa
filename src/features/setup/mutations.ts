import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as v from 'valibot';
import { apiPaths } from '../../../contract/paths.ts';
import type { SetupLicenceRequest, SetupUserRequest } from '../../../contract/schemas/setup.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { setupKeys } from './queries.ts';

export const setupMutationKeys = {
  installLicence: ['setup', 'install-licence'] as const,
  createAdministrator: ['setup', 'create-administrator'] as const,
};

export function useInstallLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: setupMutationKeys.installLicence,
    meta: { errorToast: false },
    mutationFn: (request: SetupLicenceRequest) =>
      apiRequest('POST', apiPaths.setup.licence, { body: request, schema: v.object({ status: v.string() }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: setupKeys.status() }),
  });
}

export function useCreateAdministrator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: setupMutationKeys.createAdministrator,
    meta: { errorToast: false },
    mutationFn: (request: SetupUserRequest) =>
      apiRequest('POST', apiPaths.setup.user, { body: request, schema: v.object({ id: v.string() }) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: setupKeys.status() }),
  });
}
