import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RevocationReason } from '../../../contract/certificate-policy.ts';
import { apiPaths } from '../../../contract/paths.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { certificateKeys } from './queries.ts';

export const certificateMutationKeys = {
  revoke: (id: string) => ['certificates', 'revoke', id] as const,
};

/**
 * POST certificate/{id}/revoke on the version shown. Needs the server (a revocation is never queued:
 * it must reach the CRL now); the dialog shows a failure.
 */
export function useRevokeCertificate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: certificateMutationKeys.revoke(id),
    meta: { errorToast: false, changes: apiPaths.certificates.revoke(id) },
    mutationFn: ({ reason, version }: { reason: RevocationReason; version: number }) =>
      apiRequest('POST', apiPaths.certificates.revoke(id), { body: { reason }, ifMatch: version }),
    // Refused because the certificate moved on meanwhile: its pages show its current state.
    onError: () => queryClient.invalidateQueries({ queryKey: certificateKeys.all() }),
  });
}
