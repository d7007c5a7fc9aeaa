/**
 * The face of ca for the other domains (decision 016 §2).
 */
export { describeCertificate } from './describe.ts';
export { certificatePem, certificatesPkcs7, exportCertificate } from './export.ts';
export { type IssuedCertificate, issueCertificate } from './issue.ts';
export { revokeCertificate, revokeCertificates } from './revoke.ts';
