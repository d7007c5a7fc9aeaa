import type { CertificateStatus } from '../../../contract/certificate-policy.ts';
import { distinguishedNameText } from '../../../contract/distinguished-name.ts';
import { x509 } from '../../lib/x509.ts';

/** What the last step shows of the issued certificate, read in the browser from its PEM. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  /** Lower-case hexadecimal, as the platform writes serial numbers. */
  serialNumber: string;
  status: Extract<CertificateStatus, 'issued' | 'expired'>;
}

export function summarizeCertificate(pem: string, now: Date = new Date()): CertificateSummary {
  const certificate = new x509.X509Certificate(pem);
  return {
    // Most specific first (CN=…,O=…), as RFC 4514 writes names: the encoding order reads backwards.
    subject: distinguishedNameText(certificate.subjectName.toJSON()),
    issuer: distinguishedNameText(certificate.issuerName.toJSON()),
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    serialNumber: certificate.serialNumber.toLowerCase(),
    status: now.getTime() > certificate.notAfter.getTime() ? 'expired' : 'issued',
  };
}
