import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type EnrollmentCreate,
  enrollmentCreatedSchema,
  enrollmentSchema,
} from '../../../contract/schemas/enrollments.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { enrollmentKeys } from './queries.ts';

export const enrollmentMutationKeys = {
  create: () => ['enrollments', 'create'] as const,
  resend: (id: string) => ['enrollments', 'resend', id] as const,
  cancel: (id: string) => ['enrollments', 'cancel', id] as const,
  askClientAuth: (id: string) => ['enrollments', 'client-auth', id] as const,
};

/*
 * None of these is queued offline: create and resend answer with a link shown once, which only the
 * server can make, and a cancellation revokes a certificate, which must reach the CRL now.
 */

/** POST enrollment; the answer holds the link, which the page shows once. The form shows a failure. */
export function useCreateEnrollment() {
  return useMutation({
    mutationKey: enrollmentMutationKeys.create(),
    meta: { errorToast: false, changes: apiPaths.enrollments.create },
    mutationFn: (request: EnrollmentCreate) =>
      apiRequest('POST', apiPaths.enrollments.create, { body: request, schema: enrollmentCreatedSchema }),
  });
}

/** POST enrollment/{id}/resend on the version shown: a new code and link, the old one stops working. */
export function useResendEnrollment(id: string) {
  return useMutation({
    mutationKey: enrollmentMutationKeys.resend(id),
    meta: { errorToast: false, changes: apiPaths.enrollments.resend(id) },
    mutationFn: (version: number) =>
      apiRequest('POST', apiPaths.enrollments.resend(id), {
        ifMatch: version,
        schema: enrollmentCreatedSchema,
      }),
  });
}

/**
 * DELETE enrollment/{id} on the version shown: a pending enrollment is withdrawn, an issued or
 * redeemed one has its certificate revoked (decision 021).
 */
export function useCancelEnrollment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: enrollmentMutationKeys.cancel(id),
    meta: { errorToast: false, changes: apiPaths.enrollments.byId(id) },
    mutationFn: (version: number) =>
      apiRequest('DELETE', apiPaths.enrollments.byId(id), { ifMatch: version }),
    // Refused because the enrollment moved on meanwhile: its pages show its current state.
    onError: () => queryClient.invalidateQueries({ queryKey: enrollmentKeys.all() }),
  });
}

/**
 * POST enrollment/{id}/client-auth-certificate (Q-61, decision 033): asks for a client certificate
 * for the enrollment's person, who makes it through their link. Nothing but the enrollment comes
 * back: the certificate and its key are the enrollee's.
 */
export function useAskForClientCertificate(id: string) {
  return useMutation({
    mutationKey: enrollmentMutationKeys.askClientAuth(id),
    meta: { errorToast: false, changes: apiPaths.enrollments.clientAuthCertificate(id) },
    mutationFn: () =>
      apiRequest('POST', apiPaths.enrollments.clientAuthCertificate(id), { schema: enrollmentSchema }),
  });
}
