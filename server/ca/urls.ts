import { apiPaths } from '../../contract/paths.ts';
import type { ServerConfig } from '../config.ts';

/** Where a CA's certificate is published (DER), the address of AIA caIssuers. */
export function caCertificateUrl(config: Pick<ServerConfig, 'publicUrl'>, caId: string): string {
  return `${config.publicUrl}${apiPaths.certificateAuthority.certificate(caId, 'crt')}`;
}

/** Where a CA's CRL is published, the CRL distribution point of what it signs. */
export function crlUrl(config: Pick<ServerConfig, 'publicUrl'>, caId: string): string {
  return `${config.publicUrl}${apiPaths.certificateAuthority.crl(caId)}`;
}
