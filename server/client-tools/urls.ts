import { CA_API_V1 } from '../../contract/paths.ts';

const DOWNLOAD_PATH = new RegExp(
  `^${CA_API_V1.replaceAll('/', '\\/')}\\/client-tools\\/[^/]+\\/[^/]+\\/[^/]+$`,
);

/**
 * Whether a request path is a client-tool download: its answers may be cached, unlike every other
 * API answer (server/http/security-headers.ts).
 */
export function isClientToolDownloadPath(path: string): boolean {
  return DOWNLOAD_PATH.test(path);
}
