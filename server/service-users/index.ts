/**
 * The face of service users for the other domains and the app (decision 016 §2): a service user as
 * the owner of API tokens and of client certificates.
 */
export { SERVICE_USER_CERTIFICATE_OWNERS, SERVICE_USER_TOKEN_OWNERS } from './access.ts';
