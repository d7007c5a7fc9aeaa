import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as v from 'valibot';
import { apiPaths } from '../../../contract/paths.ts';
import {
  CLIENT_AUTH_UPLOAD_MEDIA_TYPE,
  type ClientAuthCertificate,
  clientAuthCertificateSchema,
  clientAuthGeneratedSchema,
} from '../../../contract/schemas/client-auth.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { type CertificateOwner, certificatePaths, clientAuthKeys } from './queries.ts';

/*
 * Certificates are credentials: none of these changes is queued for later, and each is started from
 * a control that shows its own error, so none raises a toast of its own.
 */

export const clientAuthMutationKeys = {
  generate: (userId: string) => ['client-auth-certificates', 'generate', userId] as const,
  upload: (userId: string) => ['client-auth-certificates', 'upload', userId] as const,
  enable: (userId: string) => ['client-auth-certificates', 'enable', userId] as const,
  setupMail: (userId: string) => ['client-auth-certificates', 'setup-mail', userId] as const,
};

/** POST the CSR (the key stays in the page); the answer holds the certificate and its chain. */
export function useGenerateClientAuthCertificate(owner: CertificateOwner) {
  const userId = owner.id;
  return useMutation({
    mutationKey: clientAuthMutationKeys.generate(userId),
    meta: { errorToast: false, changes: certificatePaths(owner).list },
    mutationFn: (csr: string) =>
      apiRequest('POST', certificatePaths(owner).list, { body: { csr }, schema: clientAuthGeneratedSchema }),
  });
}

/** POST the chosen file as it is, labelled `application/x-x509-ca-cert`. */
export function useUploadClientAuthCertificate(owner: CertificateOwner) {
  return useMutation({
    mutationKey: clientAuthMutationKeys.upload(owner.id),
    meta: { errorToast: false, changes: certificatePaths(owner).list },
    mutationFn: (file: Blob) =>
      apiRequest('POST', certificatePaths(owner).list, {
        rawBody: { contentType: CLIENT_AUTH_UPLOAD_MEDIA_TYPE, data: file },
        schema: v.object({ item: clientAuthCertificateSchema }),
      }),
  });
}

/** PUT on the version the list showed: a change made meanwhile is refused (412), not overwritten. */
export function useSetClientAuthEnabled(owner: CertificateOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: clientAuthMutationKeys.enable(owner.id),
    meta: { errorToast: false, changes: certificatePaths(owner).list },
    mutationFn: ({ certificate, enabled }: { certificate: ClientAuthCertificate; enabled: boolean }) =>
      apiRequest('PUT', certificatePaths(owner).enable(certificate.id), {
        body: { enabled },
        ifMatch: certificate.version,
      }),
    // Refused because the certificate moved on meanwhile: the list shows its current state.
    onError: () => queryClient.invalidateQueries({ queryKey: clientAuthKeys.list(owner.id) }),
  });
}

/** O-21: mails a person that certificate sign-in is being set up for them. */
export function useSendClientAuthSetupMail(userId: string) {
  return useMutation({
    mutationKey: clientAuthMutationKeys.setupMail(userId),
    meta: { errorToast: false },
    mutationFn: () => apiRequest('POST', apiPaths.users.sendSetupCacBasedLoginEmail(userId)),
  });
}
