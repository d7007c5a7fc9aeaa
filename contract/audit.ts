/** Audit event enumerations of the spec (overview §3, audit event filters). */
export const AUDIT_ACTIONS = [
  'CREATE',
  'UPDATE',
  'DELETE',
  'LOGIN',
  'LOGIN_ERROR',
  'LOGOUT',
  'UPDATE_PASSWORD',
  'TERMS_AND_CONDITIONS',
  'SEND_RESET_PASSWORD',
  // Beyond the spec's list: the mail telling a user certificate sign-in is being set up (O-21).
  'SEND_CLIENT_AUTH_SETUP',
  // Beyond the spec's list: the invitation, verification, standard-login and single sign-on mails an
  // administrator sends (details.mail names which).
  'SEND_USER_MAIL',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_STATUSES = ['success', 'failure'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

export const AUDIT_RESOURCE_TYPES = [
  'APIKEY',
  'ACCOUNT',
  'USER',
  'SSO_SAML',
  'SSO_SAML_MFA',
  'SSO_OIDC',
  'ONELOGIN',
  'SSO_OIDC_MFA',
  'BASIC_AUTH',
  'BASIC_AUTH_MFA',
  'SAML2_CONFIG',
  'CLIENT_AUTH_CERT',
  'CLIENT_AUTH_CERT_MFA',
  'OAUTH_CLIENT',
  'OAUTH_CONFIG',
  'LICENSE',
  'DIGEST_AUTH',
  'SSO_OIDC_IDP_MFA',
  // Beyond the spec's filter list: changes to organizations, to their contacts and to roles, and the
  // certificate authority's own objects.
  'ORGANIZATION',
  'ORGANIZATION_CONTACT',
  'ROLE',
  'CERTIFICATE_AUTHORITY',
  'CERTIFICATE_PROFILE',
  'CERTIFICATE',
  // Certificate enrollment (decision 021): the seats of an account and their enrollments.
  'SEAT',
  'ENROLLMENT',
  // Bulk user creation (decision 038): a job started or cancelled; each user it makes is a USER.
  'BULK_IMPORT',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/**
 * One field of an UPDATE event: its value before and after, or only that it changed where the trail
 * may not keep its values (personal data such as an e-mail address, secrets, images).
 */
export type AuditFieldChange = { from: unknown; to: unknown } | { withheld: true };

/**
 * The details of every UPDATE event, whatever the resource: the changed fields by name, a nested
 * value by its dot path (`urls.support`, `feature_flags.partner_accounts`). `api_key_id` names the
 * API token the change was made with, when it was not made in a signed-in session.
 */
export type AuditUpdateDetails = { changes: Record<string, AuditFieldChange>; api_key_id?: string };
