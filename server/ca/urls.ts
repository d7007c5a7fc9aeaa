import { apiPaths, CA_API_V1 } from '../../contract/paths.ts';
import type { ServerConfig } from '../config.ts';

/** Where a CA's certificate is published (DER), the address of AIA caIssuers. */
export function caCertificateUrl(config: Pick<ServerConfig, 'publicUrl'>, caId: string): string {
  return `${config.publicUrl}${apiPaths.certificateAuthority.certificate(caId, 'crt')}`;
}

/** Where a CA's CRL is published, the CRL distribution point of what it signs. */
export function crlUrl(config: Pick<ServerConfig, 'publicUrl'>, caId: string): string {
  return `${config.publicUrl}${apiPaths.certificateAuthority.crl(caId)}`;
}

const PUBLICATION_PATH = new RegExp(
  `^${CA_API_V1.replaceAll('/', '\\/')}\\/(crl\\/[^/]+\\.crl|ca\\/[^/]+\\/certificate\\.(crt|pem))$`,
);

/**
 * Whether a request path is one of the public addresses of CA certificates and CRLs: their answers
 * may be cached (each route sets how long), unlike every other API answer.
 */
export function isCaPublicationPath(path: string): boolean {
  return PUBLICATION_PATH.test(path);
}
