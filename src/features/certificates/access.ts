import type { PermissionFlag } from '../../../contract/permissions.ts';

/** Reading certificates takes view certificate; revoking one, revoke certificate (overview §6). */
export const CERTIFICATE_READ_FLAGS: readonly PermissionFlag[] = ['canViewCertificate'];
export const CERTIFICATE_REVOKE_FLAGS: readonly PermissionFlag[] = ['canRevokeCertificate'];
