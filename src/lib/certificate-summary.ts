import * as asn1js from 'asn1js';
import type { CertificateStatus } from '../../contract/certificate-policy.ts';
import { distinguishedNameText } from '../../contract/distinguished-name.ts';
import { x509 } from './x509.ts';

/**
 * What the console shows of a certificate it holds (the enrollment's issued one, a client certificate
 * chosen for upload), read in the browser. Import it dynamically: it brings @peculiar/x509.
 */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  /** Lower-case hexadecimal, as the platform writes serial numbers. */
  serialNumber: string;
  /** X.509 version as written: 3 for a v3 certificate. */
  version: number;
  status: Extract<CertificateStatus, 'issued' | 'expired'>;
}

/** Reads a certificate in PEM or DER; throws when the bytes are not one. */
export function summarizeCertificate(
  encoded: string | BufferSource,
  now: Date = new Date(),
): CertificateSummary {
  const certificate = new x509.X509Certificate(encoded);
  return {
    // Most specific first (CN=…,O=…), as RFC 4514 writes names: the encoding order reads backwards.
    subject: distinguishedNameText(certificate.subjectName.toJSON()),
    issuer: distinguishedNameText(certificate.issuerName.toJSON()),
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    serialNumber: certificate.serialNumber.toLowerCase(),
    version: readVersion(certificate),
    status: now.getTime() > certificate.notAfter.getTime() ? 'expired' : 'issued',
  };
}

/**
 * The TBS certificate's version field, which @peculiar/x509 does not expose: an explicit [0] holding
 * the version minus one, absent for a v1 certificate (RFC 5280 §4.1.2.1).
 */
function readVersion(certificate: InstanceType<typeof x509.X509Certificate>): number {
  const parsed = asn1js.fromBER(certificate.rawData).result;
  const tbs = parsed instanceof asn1js.Sequence ? parsed.valueBlock.value[0] : undefined;
  const first = tbs instanceof asn1js.Sequence ? tbs.valueBlock.value[0] : undefined;
  if (
    !(first instanceof asn1js.Constructed) ||
    first.idBlock.tagClass !== 3 ||
    first.idBlock.tagNumber !== 0
  ) {
    return 1;
  }
  const version = first.valueBlock.value[0];
  return version instanceof asn1js.Integer ? version.valueBlock.valueDec + 1 : 1;
}
