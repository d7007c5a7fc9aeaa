import type { CertificateExportFormat } from '../../contract/schemas/certificate-authority.ts';
import { x509 } from './x509.ts';

/** A certificate (DER) as PEM, one CERTIFICATE block ending in a newline. */
export function certificatePem(der: Uint8Array): string {
  return `${x509.PemConverter.encode(Buffer.from(der), 'CERTIFICATE')}\n`;
}

/** A CRL (DER) as PEM. */
export function crlPem(der: Uint8Array): string {
  return `${x509.PemConverter.encode(Buffer.from(der), 'X509 CRL')}\n`;
}

/**
 * A certs-only PKCS#7 SignedData (DER, `.p7b`) holding the certificate then its chain (issuing CA,
 * root), as Windows and `openssl pkcs7 -print_certs` read it.
 */
export function certificatesPkcs7(ders: readonly Uint8Array[]): Uint8Array {
  const bundle = new x509.X509Certificates(ders.map((der) => new x509.X509Certificate(Buffer.from(der))));
  return new Uint8Array(bundle.export('raw'));
}

export interface ExportedCertificate {
  body: Uint8Array | string;
  contentType: string;
  /** The file extension of a download. */
  extension: 'pem' | 'cer' | 'p7b';
}

/**
 * One certificate in an export format: `pem` (the certificate, then its chain, PEM blocks),
 * `der` (the certificate alone, `application/pkix-cert`), `p7b` (the certificate and its chain,
 * PKCS#7 certs-only, `application/pkcs7-mime`). `chain` is the issuing CA then the root, DER each.
 */
export function exportCertificate(
  der: Uint8Array,
  chain: readonly Uint8Array[],
  format: CertificateExportFormat,
): ExportedCertificate {
  switch (format) {
    case 'pem':
      return {
        body: [der, ...chain].map(certificatePem).join(''),
        contentType: 'application/x-pem-file',
        extension: 'pem',
      };
    case 'der':
      return { body: der, contentType: 'application/pkix-cert', extension: 'cer' };
    case 'p7b':
      return {
        body: certificatesPkcs7([der, ...chain]),
        contentType: 'application/pkcs7-mime',
        extension: 'p7b',
      };
  }
}
