import { CommandFailure } from '../failure.ts';
import { pkijs, x509 } from '../keystores/x509.ts';

/** The certificates of a certs-only PKCS#7 SignedData (DER), read with PKI.js. */
export function parsePkcs7Certificates(der: Uint8Array): x509.X509Certificate[] {
  try {
    const info = pkijs.ContentInfo.fromBER(new Uint8Array(der));
    if (info.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw new Error('not SignedData');
    const signed = new pkijs.SignedData({ schema: info.content });
    return (signed.certificates ?? []).flatMap((item) =>
      item instanceof pkijs.Certificate ? [new x509.X509Certificate(item.toSchema().toBER())] : [],
    );
  } catch {
    throw new CommandFailure('certificateInvalid', 'The data is not a certs-only PKCS#7 chain');
  }
}

/** The chain's end-entity certificates: those that issued no other certificate of the chain. */
export function leafCertificates(chain: readonly x509.X509Certificate[]): x509.X509Certificate[] {
  return chain.filter(
    (certificate) => !chain.some((other) => other !== certificate && other.issuer === certificate.subject),
  );
}
