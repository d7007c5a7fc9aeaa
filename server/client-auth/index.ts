/**
 * The face of client authentication for the other domains (decision 016 §2): whose certificates a
 * set of routes addresses and who may register one, and issuing a client-authentication certificate
 * from a CSR.
 */
export {
  assertMayRegister,
  type CertificateOwner,
  type CertificateOwners,
  PERSON_CERTIFICATE_OWNERS,
} from './access.ts';
export { issueClientAuthCertificate } from './issue.ts';
