import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { RevocationReason } from '../../../../contract/certificate-policy.ts';
import type { CertificateSource } from '../../../../contract/schemas/certificates.ts';

/** RFC 5280 revocation reasons in the administrator's words. */
export const REVOCATION_REASON_LABELS: Readonly<Record<RevocationReason, MessageDescriptor>> = {
  unspecified: msg`Unspecified`,
  keyCompromise: msg`Key compromised`,
  affiliationChanged: msg`Affiliation changed`,
  superseded: msg`Superseded`,
  cessationOfOperation: msg`Cessation of operation`,
  privilegeWithdrawn: msg`Privilege withdrawn`,
};

/** Where a certificate came from. */
export const CERTIFICATE_SOURCE_LABELS: Readonly<Record<CertificateSource, MessageDescriptor>> = {
  client_auth: msg`Client-certificate login`,
  enrollment: msg`Enrollment`,
  profile: msg`Certificate profile`,
};
