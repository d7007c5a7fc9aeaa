import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import {
  type EnrollmentCertificateRequest,
  enrollmentCertificateSchema,
  publicClientAuthIssuedSchema,
} from '../../../contract/schemas/enrollments.ts';
import { clientAuthLoginUrlSchema } from '../../../contract/schemas/identity.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { enrollmentKeys } from './queries.ts';

/*
 * The enrollee's calls. The page is public: the enrollment's id and mailed code are the credential,
 * so no session is checked or renewed. They run inside the issue sequence (issue.ts), one after the
 * other with the trust agent's commands, not as independent mutations of a cache.
 */

/** POST enrollment/{id}/{code}/certificate: the CA issues the certificate for the CSR. */
export function requestEnrollmentCertificate(
  id: string,
  code: string,
  request: EnrollmentCertificateRequest,
) {
  return apiRequest('POST', apiPaths.enrollments.certificate(id, code), {
    body: request,
    schema: enrollmentCertificateSchema,
    sessionCheck: false,
  });
}

/**
 * POST enrollment/{id}/{code}/client-auth-certificate: the client certificate asked for the
 * enrollee, issued for the CSR their browser made (decision 033); the key stays in the page.
 */
export function useEnrolleeClientCertificate(id: string, code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: false },
    mutationFn: (csr: string) =>
      apiRequest('POST', apiPaths.enrollments.publicClientAuthCertificate(id, code), {
        body: { csr },
        schema: publicClientAuthIssuedSchema,
        sessionCheck: false,
      }),
    // The offer then says the certificate was made.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentKeys.clientAuth(id, code) }),
  });
}

/** PUT enrollment/{id}/{code}/redeem: the certificate is in the keystore; the enrollment is done. */
export function redeemEnrollment(id: string, code: string) {
  return apiRequest('PUT', apiPaths.enrollments.redeem(id, code), { sessionCheck: false });
}

/** GET enrollment/{id}/{code}/certificate: the certificate of an issued enrollment again, to install later. */
export function fetchIssuedCertificate(id: string, code: string) {
  return apiRequest('GET', apiPaths.enrollments.certificate(id, code), {
    schema: enrollmentCertificateSchema,
    sessionCheck: false,
  });
}

/** GET clientAuthLoginUrl: where a person signs in with the certificate just installed. */
export async function fetchClientAuthLoginUrl(): Promise<string> {
  const { url } = await apiRequest('GET', apiPaths.identity.clientAuthLoginUrl, {
    schema: clientAuthLoginUrlSchema,
    sessionCheck: false,
  });
  return url;
}
