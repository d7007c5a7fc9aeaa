import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type CertificateProfileCreate,
  type CertificateProfileUpdate,
  certificateProfileSchema,
} from '../../../contract/schemas/certificate-profiles.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { profileKeys } from './queries.ts';

export const profileMutationKeys = {
  create: () => ['certificate-profiles', 'create'] as const,
  update: (id: string) => ['certificate-profiles', 'update', id] as const,
  delete: (id: string) => ['certificate-profiles', 'delete', id] as const,
};

/** POST profile; the form shows a failure. */
export function useCreateProfile() {
  return useMutation({
    mutationKey: profileMutationKeys.create(),
    meta: { errorToast: false, changes: apiPaths.certificateProfiles.profiles },
    mutationFn: (request: CertificateProfileCreate) =>
      apiRequest('POST', apiPaths.certificateProfiles.profiles, {
        body: request,
        schema: certificateProfileSchema,
      }),
  });
}

/**
 * PUT profile/{id} on the version the form was filled from (412 when it changed meanwhile, and the
 * form offers the reload). Not queued offline: a profile decides what certificates are issued, so
 * its change waits for the server rather than replaying later over someone else's.
 */
export function useUpdateProfile(id: string) {
  return useMutation({
    mutationKey: profileMutationKeys.update(id),
    meta: { errorToast: false, changes: apiPaths.certificateProfiles.byId(id) },
    mutationFn: ({ update, version }: { update: CertificateProfileUpdate; version: number }) =>
      apiRequest('PUT', apiPaths.certificateProfiles.byId(id), { body: update, ifMatch: version }),
  });
}

/** DELETE profile/{id} on the version shown. */
export function useDeleteProfile(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: profileMutationKeys.delete(id),
    meta: { errorToast: false, changes: apiPaths.certificateProfiles.byId(id) },
    mutationFn: (version: number) =>
      apiRequest('DELETE', apiPaths.certificateProfiles.byId(id), { ifMatch: version }),
    onSuccess: () => queryClient.removeQueries({ queryKey: profileKeys.detail(id) }),
  });
}
