import * as v from 'valibot';
import {
  featureFlagListSchema,
  featureFlagSchema,
  featureFlagUpdateSchema,
} from '../../contract/feature-flags.ts';
import {
  ACCOUNT_API_V1,
  apiPaths,
  CA_API_V1,
  IDENTITY_API_V1,
  UI_API_V1,
  UI_API_V2,
} from '../../contract/paths.ts';
import {
  apiTokenCreatedSchema,
  apiTokenCreateSchema,
  apiTokenListQuerySchema,
  apiTokenListSchema,
  apiTokenSchema,
  apiTokenUpdateSchema,
} from '../../contract/schemas/api-tokens.ts';
import {
  auditCheckpointListQuerySchema,
  auditCheckpointListSchema,
  auditEventListSchema,
  auditEventSchema,
  auditLogExportQueryObjectSchema,
  auditLogListQueryObjectSchema,
  auditVerificationSchema,
} from '../../contract/schemas/audit-log.ts';
import {
  bulkJobSchema,
  bulkRowListSchema,
  bulkRowsQuerySchema,
  bulkStartSchema,
  bulkValidateQuerySchema,
} from '../../contract/schemas/bulk-import.ts';
import {
  certificateAuthorityListSchema,
  certificateAuthoritySchema,
} from '../../contract/schemas/certificate-authority.ts';
import {
  certificateProfileCreateSchema,
  certificateProfileListQuerySchema,
  certificateProfileListSchema,
  certificateProfileSchema,
  certificateProfileUpdateSchema,
  certificateTemplateListSchema,
  certificateTemplateQuerySchema,
  enrollmentMethodListSchema,
  keystoreTypeListSchema,
  nationalityListSchema,
  nationalityQuerySchema,
} from '../../contract/schemas/certificate-profiles.ts';
import {
  certificateExportQueryObjectSchema,
  certificateIssuedSchema,
  certificateIssueSchema,
  certificateListQueryObjectSchema,
  certificateListSchema,
  certificateRevokeSchema,
  certificateSchema,
} from '../../contract/schemas/certificates.ts';
import {
  CLIENT_AUTH_UPLOAD_MEDIA_TYPE,
  clientAuthCertificateListQuerySchema,
  clientAuthCertificateListSchema,
  clientAuthCertificateSchema,
  clientAuthEnableSchema,
  clientAuthGeneratedSchema,
  clientAuthGenerateSchema,
  clientAuthUploadSchema,
} from '../../contract/schemas/client-auth.ts';
import { clientToolListSchema } from '../../contract/schemas/client-tools.ts';
import { API_ERROR_CODES, apiErrorSchema, listSchema } from '../../contract/schemas/common.ts';
import {
  enrollmentCertificateRequestSchema,
  enrollmentCertificateSchema,
  enrollmentCreatedSchema,
  enrollmentCreateSchema,
  enrollmentListQuerySchema,
  enrollmentListSchema,
  enrollmentSchema,
  enrollmentStatusAnswerSchema,
  publicClientAuthIssuedSchema,
  publicClientAuthOfferSchema,
  publicEnrollmentSchema,
  seatEnrollmentsQuerySchema,
  seatSchema,
} from '../../contract/schemas/enrollments.ts';
import {
  authMeSchema,
  clientAuthLoginUrlSchema,
  loginCustomizationSchema,
  loginRequestSchema,
  refreshRequestSchema,
  storageSecretSchema,
  tokenResponseSchema,
  verifyUserRequestSchema,
  verifyUserResponseSchema,
} from '../../contract/schemas/identity.ts';
import { licenceCheckSchema } from '../../contract/schemas/licence.ts';
import {
  accountFeatureListSchema,
  accountFeatureUpdateSchema,
  accountLicenceListSchema,
  accountLicenceSchema,
  licenceChangeResultSchema,
  licenceChangeSchema,
  licenceDetailsSchema,
  licenceHistoryDetailsQuerySchema,
  licenceHistoryListSchema,
  licenceHistoryQuerySchema,
  licenceUsageReportSchema,
  licenceUsageSchema,
} from '../../contract/schemas/licences.ts';
import {
  contactFieldsSchema,
  contactListQuerySchema,
  contactListSchema,
  contactSchema,
  organizationCreateSchema,
  organizationListQuerySchema,
  organizationListSchema,
  organizationSchema,
  organizationUpdateSchema,
} from '../../contract/schemas/organizations.ts';
import {
  applicationSchema,
  localeEntrySchema,
  permissionEntrySchema,
  permissionsQuerySchema,
  profileSchema,
  userApplicationsQuerySchema,
} from '../../contract/schemas/profile.ts';
import {
  serviceUserCreatedSchema,
  serviceUserCreateSchema,
  serviceUserExportQuerySchema,
  serviceUserListQuerySchema,
  serviceUserListSchema,
  serviceUserSchema,
  serviceUserUpdateSchema,
} from '../../contract/schemas/service-users.ts';
import {
  setupLicenceRequestSchema,
  setupStatusSchema,
  setupUserRequestSchema,
} from '../../contract/schemas/setup.ts';
import { createdSchema, setupLicenceResultSchema } from '../../contract/schemas/setup-results.ts';
import {
  expiringTenantsSchema,
  tenantCreateSchema,
  tenantDeleteQuerySchema,
  tenantExportQuerySchema,
  tenantFederationSchema,
  tenantListQuerySchema,
  tenantListSchema,
  tenantSchema,
  tenantUnlinkSchema,
  tenantUpdateSchema,
} from '../../contract/schemas/tenants.ts';
import {
  agreementSchema,
  defaultManagerQuerySchema,
  passwordChangeSchema,
  passwordResetSchema,
  permissionGroupListSchema,
  permissionGroupQuerySchema,
  roleCreateSchema,
  roleDetailsSchema,
  roleExportQuerySchema,
  roleListQuerySchema,
  roleListSchema,
  roleSchema,
  roleUniqueQuerySchema,
  roleUniqueSchema,
  roleUpdateSchema,
  roleUsersQuerySchema,
  roleUsersUpdateSchema,
  userAccessSchema,
  userApplicationListSchema,
  userCreateSchema,
  userDeleteQuerySchema,
  userEnableSchema,
  userExistsQuerySchema,
  userExistsSchema,
  userExportQuerySchema,
  userListQuerySchema,
  userListSchema,
  userSchema,
  userUpdateSchema,
  userVerifySchema,
} from '../../contract/schemas/users.ts';
import { VALIDATION_CODES } from '../../contract/validation.ts';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_REPLAYED_HEADER,
  isIdempotencyExempt,
} from '../http/idempotency.ts';
import { type JsonSchema, toJsonSchema } from './json-schema.ts';

type Method = 'get' | 'post' | 'put' | 'delete';

/** One endpoint as the reference lists it; schemas are the contract's, so the document cannot drift. */
export interface Operation {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  /** Needs `Authorization: Bearer <access token>`. */
  authenticated: boolean;
  query?: v.ObjectSchema<v.ObjectEntries, undefined>;
  pathParameters?: readonly string[];
  requestBody?: v.GenericSchema;
  /** The body is a CSV file's raw bytes (`text/csv`), not JSON. */
  csvBody?: string;
  /** Besides JSON, the body may be a certificate file's raw bytes (`application/x-x509-ca-cert`). */
  certificateBody?: string;
  success: {
    status: number;
    description: string;
    schema?: v.GenericSchema;
    etag?: boolean;
    /** The body is a file of this media type (a certificate, a CRL), not JSON. */
    binary?: string;
  };
  failures: readonly number[];
  /**
   * If-Match: `required` answers 428 without it (the edits the console may queue offline),
   * `optional` honours it when sent; both answer 412 with `current`, the object as its GET answers it.
   */
  ifMatch?: { required: boolean; current: v.GenericSchema };
}

/** Paths in the document are relative to the server root, as the console calls them. */
export const OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: apiPaths.certificateAuthority.list,
    tag: 'Certificate authority',
    summary:
      "The platform's working CAs (root and issuing) with their parsed certificates, publication addresses and CRL state; needs view CA or manage CA.",
    authenticated: true,
    success: { status: 200, description: 'Working CAs', schema: certificateAuthorityListSchema },
    failures: [401, 403],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/ca/{id}`,
    tag: 'Certificate authority',
    summary: 'One CA, working or retired; 404 when none has this id, then 403 without view CA or manage CA.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'The CA', schema: certificateAuthoritySchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/ca/{id}/certificate.crt`,
    tag: 'Certificate authority',
    summary: "Public: the CA's certificate, DER (application/pkix-cert), the address of AIA caIssuers.",
    authenticated: false,
    pathParameters: ['id'],
    success: { status: 200, description: 'CA certificate (DER)', binary: 'application/pkix-cert' },
    failures: [400, 404],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/ca/{id}/certificate.pem`,
    tag: 'Certificate authority',
    summary: "Public: the CA's certificate, PEM.",
    authenticated: false,
    pathParameters: ['id'],
    success: { status: 200, description: 'CA certificate (PEM)', binary: 'application/x-pem-file' },
    failures: [400, 404],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/crl/{id}.crl`,
    tag: 'Certificate authority',
    summary:
      "Public: the CA's current CRL, DER (application/pkix-crl), the CRL distribution point of what it signs; cached until its nextUpdate, an hour at most.",
    authenticated: false,
    pathParameters: ['id'],
    success: { status: 200, description: 'CRL (DER)', binary: 'application/pkix-crl' },
    failures: [404],
  },
  {
    method: 'get',
    path: apiPaths.clientTools.list,
    tag: 'Client tools',
    summary:
      'Public: the client-tools catalogue, the trust assistant for each operating system and the tools an operator placed in the catalogue directory, with the files present and the SHA-1 and SHA-256 the server computed from them.',
    authenticated: false,
    success: { status: 200, description: 'Client tools', schema: clientToolListSchema },
    failures: [],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/client-tools/{id}/{folder}/{name}`,
    tag: 'Client tools',
    summary:
      'Public: one file of the catalogue, as an attachment; ETag its SHA-256 (If-None-Match answers 304), cached as immutable. Only names the catalogue lists are served; anything else is 404.',
    authenticated: false,
    pathParameters: ['id', 'folder', 'name'],
    success: { status: 200, description: 'The file', binary: 'application/octet-stream' },
    failures: [404],
  },
  {
    method: 'post',
    path: apiPaths.identity.verifyUser,
    tag: 'Sign-in',
    summary: 'Username step: answers the next step, the same whether or not the user exists.',
    authenticated: false,
    requestBody: verifyUserRequestSchema,
    success: { status: 200, description: 'Next step', schema: verifyUserResponseSchema },
    failures: [400],
  },
  {
    method: 'post',
    path: apiPaths.identity.login,
    tag: 'Sign-in',
    summary: 'Password step: issues an access token and sets the refresh and trusted-device cookies.',
    authenticated: false,
    requestBody: loginRequestSchema,
    success: { status: 200, description: 'Signed in', schema: tokenResponseSchema },
    failures: [400, 401, 429],
  },
  {
    method: 'post',
    path: apiPaths.identity.refresh,
    tag: 'Sign-in',
    summary: 'Exchanges the refresh token (cookie or body) for a new pair; a reused token ends the session.',
    authenticated: false,
    requestBody: refreshRequestSchema,
    success: { status: 200, description: 'New tokens', schema: tokenResponseSchema },
    failures: [400, 401],
  },
  {
    method: 'post',
    path: apiPaths.identity.logout,
    tag: 'Sign-in',
    summary: 'Ends the session of the access token and clears the refresh cookie.',
    authenticated: true,
    success: { status: 204, description: 'Signed out' },
    failures: [401, 403],
  },
  {
    method: 'get',
    path: apiPaths.identity.me,
    tag: 'Sign-in',
    summary: 'The signed-in user.',
    authenticated: true,
    success: { status: 200, description: 'Signed-in user', schema: authMeSchema },
    failures: [401],
  },
  {
    method: 'get',
    path: apiPaths.identity.storageSecret,
    tag: 'Sign-in',
    summary:
      "The signed-in user's storage secret (32 random bytes, base64url), made on first request; the console wraps the keys of its offline data with it. Cache-Control: no-store.",
    authenticated: true,
    success: { status: 200, description: 'Storage secret', schema: storageSecretSchema },
    failures: [401, 403],
  },
  {
    method: 'get',
    path: apiPaths.identity.clientAuthLoginUrl,
    tag: 'Sign-in',
    summary:
      "Public: the console's sign-in page on the configured public address, where a person goes after installing an enrollment's certificate.",
    authenticated: false,
    success: { status: 200, description: 'The sign-in address', schema: clientAuthLoginUrlSchema },
    failures: [],
  },
  {
    method: 'get',
    path: apiPaths.identity.loginCustomization,
    tag: 'Sign-in',
    summary: 'Logo, footer links and copyright of the sign-in page; ETag is their version ("0" until set).',
    authenticated: false,
    success: {
      status: 200,
      description: 'Sign-in page settings',
      schema: loginCustomizationSchema,
      etag: true,
    },
    failures: [],
  },
  {
    method: 'put',
    path: apiPaths.identity.loginCustomization,
    tag: 'Sign-in',
    summary:
      'Changes the sign-in page settings (system scope, manage system settings); If-Match is honoured.',
    authenticated: true,
    requestBody: loginCustomizationSchema,
    success: { status: 200, description: 'Stored settings', schema: loginCustomizationSchema, etag: true },
    failures: [400, 401, 403, 413, 415],
    ifMatch: { required: false, current: loginCustomizationSchema },
  },
  {
    method: 'get',
    path: apiPaths.setup.status,
    tag: 'Setup',
    summary: 'What first-time setup still needs.',
    authenticated: false,
    success: { status: 200, description: 'Setup progress', schema: setupStatusSchema },
    failures: [],
  },
  {
    method: 'post',
    path: apiPaths.setup.licence,
    tag: 'Setup',
    summary: 'Installs the signed licence; open only until the first administrator exists.',
    authenticated: false,
    requestBody: setupLicenceRequestSchema,
    success: { status: 201, description: 'Licence installed', schema: setupLicenceResultSchema },
    failures: [400, 403, 413, 415],
  },
  {
    method: 'post',
    path: apiPaths.setup.user,
    tag: 'Setup',
    summary: 'Creates the first administrator (system scope); needs a valid licence.',
    authenticated: false,
    requestBody: setupUserRequestSchema,
    success: { status: 201, description: 'Administrator created', schema: createdSchema },
    failures: [400, 403, 409, 415, 429],
  },
  {
    method: 'get',
    path: apiPaths.licence.status,
    tag: 'Licence',
    summary: 'Status of the installed licence, and where to go when it has expired.',
    authenticated: false,
    success: { status: 200, description: 'Licence status', schema: licenceCheckSchema },
    failures: [],
  },
  {
    method: 'get',
    path: apiPaths.licence.details,
    tag: 'Licence',
    summary:
      "The installed licence and its system pools: each licence type's limit (-1 unlimited) and what the system gave its accounts; system scope with view or manage licence. 404 before a licence is installed.",
    authenticated: true,
    success: { status: 200, description: 'Licence and pools', schema: licenceDetailsSchema },
    failures: [401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/license/usage/{app}`,
    tag: 'Licence',
    summary:
      "The system-wide use of an application: each type's pool, what the system allocated of it and what remains; system scope with the application's view or manage licence permission.",
    authenticated: true,
    pathParameters: ['app'],
    success: { status: 200, description: 'System use', schema: licenceUsageSchema },
    failures: [400, 401, 403],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/account/{id}/licenses`,
    tag: 'Licences per account',
    summary:
      "An account's licence sections, one per application with licence types whose view or manage licence permission the caller holds, in catalogue order; an account out of reach is 404, no licence permission at all 403.",
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Licence sections', schema: accountLicenceListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/account/{id}/license/{app}`,
    tag: 'Licences per account',
    summary:
      "An account's licence of one application (J-06, J-07): each type's total, use, remainder and what the parent can still give; ETag is the version of the account's allocations of the application. The account management application has no rows (J-38).",
    authenticated: true,
    pathParameters: ['id', 'app'],
    success: { status: 200, description: 'Licence section', schema: accountLicenceSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/account/{id}/license/{app}`,
    tag: 'Licences per account',
    summary:
      "Adds to, subtracts from or resets an account's allocations of one application (J-11 … J-24, J-32), checked under the pool's row locks; needs manage account and the application's manage licence permission, on an account the caller allocates to (system scope: any but the System Account; a partner: its accounts). Writes a history row per changed type and one audit event. If-Match is required.",
    authenticated: true,
    pathParameters: ['id', 'app'],
    requestBody: licenceChangeSchema,
    success: { status: 200, description: 'Licence and event', schema: licenceChangeResultSchema, etag: true },
    failures: [400, 401, 403, 404, 413, 415],
    ifMatch: { required: true, current: accountLicenceSchema },
  },
  {
    method: 'get',
    path: `${UI_API_V1}/account/{id}/license/usage/{app}`,
    tag: 'Licences per account',
    summary: "An account's use of each type of one application, with its limit and remainder (J-36).",
    authenticated: true,
    pathParameters: ['id', 'app'],
    success: { status: 200, description: 'Use', schema: licenceUsageSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/account/{id}/license/usage/{app}`,
    tag: 'Licences per account',
    summary:
      "The use an application reports of an account's types it counts itself (J-36); metered types are counted by the platform and refused. System scope with the application's manage licence permission; a partner's or the System Account's use is what it allocated (409).",
    authenticated: true,
    pathParameters: ['id', 'app'],
    requestBody: licenceUsageReportSchema,
    success: { status: 204, description: 'Use stored' },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/license/limit/{id}/{app}`,
    tag: 'Licences per account',
    summary:
      "An account's allocations of one application: each type's limit, use and remainder (J-08, J-37).",
    authenticated: true,
    pathParameters: ['id', 'app'],
    success: { status: 200, description: 'Allocations', schema: licenceUsageSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/license/limit/{id}/history`,
    tag: 'Licences per account',
    summary:
      "A page of an account's licence history (J-41, J-42), newest first unless sorted otherwise, of the applications whose licences the caller sees; each item's date in the asked IANA time zone (UTC without); the actor's name to system scope only (J-43).",
    authenticated: true,
    pathParameters: ['id'],
    query: licenceHistoryQuerySchema,
    success: { status: 200, description: 'History page', schema: licenceHistoryListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/license/limit/{id}/history-details`,
    tag: 'Licences per account',
    summary:
      "Every row of an account's licence history, oldest first, for the CSV and the chart; dates in the asked time zone.",
    authenticated: true,
    pathParameters: ['id'],
    query: licenceHistoryDetailsQuerySchema,
    success: { status: 200, description: 'History', schema: licenceHistoryListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.profile,
    tag: 'Profile',
    summary:
      "The signed-in user's profile, accounts, permissions and applications; ETag (and `version`) is the user's version, on which the own profile's PUT user/{id} is made.",
    authenticated: true,
    success: { status: 200, description: 'Profile', schema: profileSchema, etag: true },
    failures: [401],
  },
  {
    method: 'get',
    path: apiPaths.permissions,
    tag: 'Profile',
    summary: "The caller's permission names in a scope and account.",
    authenticated: true,
    query: permissionsQuerySchema,
    success: { status: 200, description: 'Permissions', schema: listSchema(permissionEntrySchema) },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.userApplications,
    tag: 'Profile',
    summary: 'Applications the caller can open.',
    authenticated: true,
    query: userApplicationsQuerySchema,
    success: { status: 200, description: 'Applications', schema: listSchema(applicationSchema) },
    failures: [400, 401],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/locale/{locale}`,
    tag: 'Profile',
    summary: "Sets a user's language (own user, or manage user).",
    authenticated: true,
    pathParameters: ['id', 'locale'],
    success: { status: 204, description: 'Language changed' },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.users.list,
    tag: 'Users',
    summary:
      'The users the caller reaches (view user or any manage-user permission), filtered, sorted and a page at a time; an account or role filter out of reach is 404.',
    authenticated: true,
    query: userListQuerySchema,
    success: { status: 200, description: 'Users', schema: userListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.users.export,
    tag: 'Users',
    summary: 'The same users, filtered and sorted, all of them, as a CSV attachment (text/csv).',
    authenticated: true,
    query: userExportQuerySchema,
    success: { status: 200, description: 'CSV file, header row first' },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.users.exists,
    tag: 'Users',
    summary: 'Whether a user name is taken anywhere on the platform (any signed-in caller).',
    authenticated: true,
    query: userExistsQuerySchema,
    success: { status: 200, description: 'Whether it exists', schema: userExistsSchema },
    failures: [400, 401],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/{id}`,
    tag: 'Users',
    summary:
      'The whole record of a user the caller reaches (view user or any manage-user permission); ETag is its version.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'User', schema: userSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}`,
    tag: 'Users',
    summary:
      "Replaces a user's fields (names, user name, e-mail, phone, language, aliases): the person themselves, or whoever may change that user (manage user and the manage permission of its scope) and holds every permission it holds (403 userExceedsYours). Aliases only for system-scope users (400); a taken user name is 409 inUse. A new e-mail address is unverified until its link is used: the user's open links end, a verification goes to the new address and a notice to the old one. Other members (scope, enabled, roles) are ignored.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: userUpdateSchema,
    success: { status: 204, description: 'User changed', etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: userSchema },
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/password`,
    tag: 'Users',
    summary:
      "Changes the caller's own password (403 ownUserOnly for anyone else), in a signed-in session only (403 sessionRequired). A wrong current password is 400 wrongPassword and counts against the sign-in throttle (429); the new one must differ (samePassword). Every other session of the user ends; a notice is mailed.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: passwordChangeSchema,
    success: { status: 204, description: 'Password changed' },
    failures: [400, 401, 403, 404, 413, 415, 429],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/{id}/applications`,
    tag: 'Users',
    summary: 'The licensed applications a user the caller reaches holds a role in, with those roles.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Applications', schema: userApplicationListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/user`,
    tag: 'Users',
    summary:
      'Creates a person in an account the caller reaches (manage user and manage user of the scope the account gives; roles held by the caller and fitting the user) and queues the invitation mail; 409 inUse for a taken user name.',
    authenticated: true,
    requestBody: userCreateSchema,
    success: { status: 201, description: 'User created', schema: userSchema, etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/user`,
    tag: 'Users',
    summary:
      'Deletes up to 100 users the caller may change, all or none (never oneself, a stronger user, or the last system administrator), and revokes the certificates they own (affiliationChanged).',
    authenticated: true,
    query: userDeleteQuerySchema,
    success: { status: 204, description: 'Users deleted' },
    failures: [400, 401, 403, 404, 409],
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/user/{id}`,
    tag: 'Users',
    summary:
      'Deletes a user the caller may change (never oneself, a stronger user, or the last system administrator) and revokes the certificates the user owns (affiliationChanged); If-Match is honoured.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'User deleted' },
    failures: [400, 401, 403, 404, 409],
    ifMatch: { required: false, current: userSchema },
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/enable`,
    tag: 'Users',
    summary:
      'Enables or disables a user; disabling ends every session of the user at once. Never oneself, a stronger user, or the last system administrator; If-Match is required.',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: userEnableSchema,
    success: { status: 204, description: 'Enabled state changed' },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: userSchema },
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/access`,
    tag: 'Users',
    summary:
      'Replaces the accounts (beyond the primary one) and the roles of a user: every added role held by the caller and fitting the user; never oneself, a stronger user, or the last system administrator; If-Match is required.',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: userAccessSchema,
    success: { status: 204, description: 'Access changed' },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: userSchema },
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/verification`,
    tag: 'Users',
    summary:
      'Sends the invitation again while the user has no password, else the verification link of the current address; oneself needs no permission. 429 with Retry-After within a minute of the last.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Mail queued' },
    failures: [400, 401, 403, 404, 409, 429],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/email`,
    tag: 'Users',
    summary:
      'Sends a password-reset link to a user the caller may change, at a verified address only (409 emailNotVerified). 429 with Retry-After within a minute of the last.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Mail queued' },
    failures: [400, 401, 403, 404, 409, 429],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/standard-login`,
    tag: 'Users',
    summary:
      'Invites a user without a password to set one (409 hasPassword otherwise). 429 with Retry-After within a minute of the last.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Mail queued' },
    failures: [400, 401, 403, 404, 409, 429],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/resendSsoEmail`,
    tag: 'Users',
    summary:
      'Sends the single sign-on mail again (409 noSingleSignOn without a SAML or OIDC user name). 429 with Retry-After within a minute of the last.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Mail queued' },
    failures: [400, 401, 403, 404, 409, 429],
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/user/{id}/mfa`,
    tag: 'Users',
    summary:
      'Unlocks a locked user (unlock mail), else clears the two-factor enrollment (set-up mail); never oneself or a stronger user.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Two-factor reset' },
    failures: [400, 401, 403, 404, 429],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/defaultManager`,
    tag: 'Users',
    summary:
      'Sets the application the console opens first: an application context in which the user holds a role. Oneself, or a user the caller may change.',
    authenticated: true,
    pathParameters: ['id'],
    query: defaultManagerQuerySchema,
    success: { status: 204, description: 'Default application set' },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/agreement`,
    tag: 'Users',
    summary:
      'Records that the signed-in person accepts the terms, in the language given; oneself only (403 ownUserOnly).',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: agreementSchema,
    success: { status: 204, description: 'Terms accepted' },
    failures: [400, 401, 403, 404, 413, 415],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/user/{id}/verify`,
    tag: 'Users',
    summary:
      'Public: the mailed code sets the first password (invitation) or, with the current password, verifies the address. Every bad code is 400 linkExpired; a wrong password is 400 wrongPassword and counts against the sign-in throttle (429).',
    authenticated: false,
    pathParameters: ['id'],
    requestBody: userVerifySchema,
    success: { status: 204, description: 'Verified' },
    failures: [400, 413, 415, 429],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/user/{id}/reset-password`,
    tag: 'Users',
    summary:
      'Public: the mailed code sets a new password, ends every session of the user and marks the address verified. Every bad code is 400 linkExpired.',
    authenticated: false,
    pathParameters: ['id'],
    requestBody: passwordResetSchema,
    success: { status: 204, description: 'Password set' },
    failures: [400, 413, 415],
  },
  {
    method: 'post',
    path: apiPaths.users.bulkValidate,
    tag: 'Bulk user creation',
    summary:
      'Dry run of a bulk user file: the account first (404 out of reach, 403 without the permission of creating users there), then the default roles (404, 403 permissionNotHeld, 400 roleNotForUser), then the file, refused whole with 400 notUtf8, emptyFile, tooManyRows (over 10,000 rows), missingColumn or unknownColumn (field file.<column>), malformedCsv (field file.line.<n>), 413 above 4 MiB, 415 unless text/csv. Every row is stored valid or invalid with its reasons; the answer is the job.',
    authenticated: true,
    query: bulkValidateQuerySchema,
    csvBody:
      'The file: a header row naming first_name, last_name, email, user_name and optionally phone, locale, roles (| between role names); comma- or semicolon-separated, UTF-8.',
    success: { status: 200, description: 'Job, state validated', schema: bulkJobSchema },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'post',
    path: apiPaths.users.bulk,
    tag: 'Bulk user creation',
    summary:
      "Starts one's own validated job (409 otherwise): its valid rows are created in the background one transaction each, with an invitation unless send_invitations is false. Location names the job.",
    authenticated: true,
    requestBody: bulkStartSchema,
    success: { status: 202, description: 'Job queued', schema: bulkJobSchema },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/bulk/{jobId}`,
    tag: 'Bulk user creation',
    summary: "One's own bulk job with its counts; anyone else's is 404.",
    authenticated: true,
    pathParameters: ['jobId'],
    success: { status: 200, description: 'Job', schema: bulkJobSchema },
    failures: [400, 401, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/bulk/{jobId}/rows`,
    tag: 'Bulk user creation',
    summary: "A page of one's own job's rows in file order, all or of one status, with each row's reasons.",
    authenticated: true,
    pathParameters: ['jobId'],
    query: bulkRowsQuerySchema,
    success: { status: 200, description: 'Rows', schema: bulkRowListSchema },
    failures: [400, 401, 404],
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/user/bulk/{jobId}`,
    tag: 'Bulk user creation',
    summary:
      "Cancels one's own job: one not yet running ends at once, a running one stops between two rows; rows not yet processed become cancelled. 409 once it has ended.",
    authenticated: true,
    pathParameters: ['jobId'],
    success: { status: 204, description: 'Cancelled or cancelling' },
    failures: [400, 401, 404, 409],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/bulk/{jobId}/report`,
    tag: 'Bulk user creation',
    summary:
      "One's own job's report as a CSV attachment: every row with its outcome (created, invalid, failed, cancelled), its reasons in the creator's language with the stable codes, and the new user's id.",
    authenticated: true,
    pathParameters: ['jobId'],
    success: { status: 200, description: 'CSV file, header row first' },
    failures: [400, 401, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/{id}/api-tokens`,
    tag: 'API tokens',
    summary:
      "A user's API tokens, newest first, never their values (the user themselves, or view user or any manage-user permission); status=active (the default) leaves out revoked and expired ones.",
    authenticated: true,
    pathParameters: ['id'],
    query: apiTokenListQuerySchema,
    success: { status: 200, description: 'API tokens', schema: apiTokenListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/user/{id}/api-tokens`,
    tag: 'API tokens',
    summary:
      'Makes an API token for the caller themselves, in a signed-in session (403 ownUserOnly, sessionRequired); the answer holds its value, shown this once (Cache-Control: no-store). At most 20 active tokens (409 limitReached); a name taken among tokens not revoked is 409 inUse.',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: apiTokenCreateSchema,
    success: {
      status: 201,
      description: 'API token made, with its value',
      schema: apiTokenCreatedSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/{id}/api-tokens/{tokenId}`,
    tag: 'API tokens',
    summary: 'One API token of a user, without its value; ETag is its version.',
    authenticated: true,
    pathParameters: ['id', 'tokenId'],
    success: { status: 200, description: 'API token', schema: apiTokenSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/api-tokens/{tokenId}`,
    tag: 'API tokens',
    summary:
      "Sets an API token's end date (null for none, else after today); its own user only, in a signed-in session, and not once revoked (409).",
    authenticated: true,
    pathParameters: ['id', 'tokenId'],
    requestBody: apiTokenUpdateSchema,
    success: { status: 204, description: 'End date set', etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: false, current: apiTokenSchema },
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/user/{id}/api-tokens/{tokenId}`,
    tag: 'API tokens',
    summary:
      'Revokes an API token: its own user, or whoever may change that user and holds every permission they hold (403 userExceedsYours). It stops working on the next request.',
    authenticated: true,
    pathParameters: ['id', 'tokenId'],
    success: { status: 204, description: 'API token revoked' },
    failures: [400, 401, 403, 404],
    ifMatch: { required: false, current: apiTokenSchema },
  },
  {
    method: 'get',
    path: apiPaths.certificates.list,
    tag: 'Certificates',
    summary:
      'The certificates the platform CA issued in the accounts the caller reaches (view certificate; certificates whose account is gone, system scope only), filtered by q (common name or serial), status (issued, revoked, expired), account_id, profile_id, source and the days issued (issued_from, issued_to, UTC), sorted and a page at a time; an account filter out of reach is 404.',
    authenticated: true,
    query: certificateListQueryObjectSchema,
    success: { status: 200, description: 'Certificates', schema: certificateListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.certificates.export,
    tag: 'Certificates',
    summary:
      'format=pem|der|p7b with id: one certificate as an attachment (PEM, the certificate then the issuing CA and the root; DER, the certificate alone, application/pkix-cert; PKCS#7 certs-only DER with the issuing CA and the root, application/pkcs7-mime). format=csv with the list filters and sort: every matching certificate as a CSV attachment (text/csv). View certificate.',
    authenticated: true,
    query: certificateExportQueryObjectSchema,
    success: { status: 200, description: 'The certificate file, or a CSV file with its header row first' },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: apiPaths.certificates.list,
    tag: 'Certificates',
    summary:
      "Issues a certificate under one of the account's profiles (manage enrollment; the profile within reach) from a PKCS#10 request (PEM) and the subject values its policy allows; the CSR's own subject and extensions are never copied. A bad CSR, a weak or refused key or a subject against the policy is 400 naming the field.",
    authenticated: true,
    requestBody: certificateIssueSchema,
    success: {
      status: 201,
      description: 'Certificate issued, with its chain (issuing CA, root), PEM',
      schema: certificateIssuedSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 413, 415],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/certificate/{id}`,
    tag: 'Certificates',
    summary:
      'A certificate the caller reaches (view certificate), with its parsed details (issuer, subject, validity, version, fingerprints, algorithms) and its PEM; ETag is its version.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Certificate', schema: certificateSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${CA_API_V1}/certificate/{id}/revoke`,
    tag: 'Certificates',
    summary:
      "Revokes a certificate with an RFC 5280 reason (revoke certificate); its CA's CRL is signed again at once. One already revoked is 409 conflict. If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: certificateRevokeSchema,
    success: { status: 204, description: 'Certificate revoked', etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: certificateSchema },
  },
  {
    method: 'get',
    path: `${UI_API_V1}/user/{id}/client-auth-certificate`,
    tag: 'Client-authentication certificates',
    summary:
      "A person's client-authentication certificates, newest first, with status (issued, revoked, expired) and, for issued ones, the platform certificate's id (the person themselves, or view user or any manage-user permission).",
    authenticated: true,
    pathParameters: ['id'],
    query: clientAuthCertificateListQuerySchema,
    success: {
      status: 200,
      description: 'Client-authentication certificates',
      schema: clientAuthCertificateListSchema,
    },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/user/{id}/client-auth-certificate`,
    tag: 'Client-authentication certificates',
    summary:
      "Registers a client-authentication certificate for a person (the person, or whoever may change them and holds all they hold), in a signed-in session. Generate: the subject is the person's user name, primary account name and e-mail, never the CSR's; EKU clientAuth. Upload: one X.509 certificate, not expired (400 certificateUnreadable, notOneCertificate, certificateExpired), at most 4 KB (413); one the person already has is 409 inUse.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: v.union([clientAuthGenerateSchema, clientAuthUploadSchema]),
    certificateBody:
      'JSON { csr } (generate: the platform CA issues; the answer adds certificate and chain, PEM) or { certificate } (upload: PEM text or base64 DER), or the certificate file itself, PEM or DER, with Content-Type application/x-x509-ca-cert, at most 4096 bytes.',
    success: {
      status: 201,
      description: 'Certificate registered; after generation with the certificate and its chain',
      schema: v.union([clientAuthGeneratedSchema, v.object({ item: clientAuthCertificateSchema })]),
      etag: true,
    },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: apiPaths.enrollments.list,
    tag: 'Enrollment',
    summary:
      "The enrollments of the accounts the caller reaches (view enrollment), filtered by account_id, seat_id, status (expired: pending past its code's end) and search (seat name, e-mail or profile), sorted by created_at, status or seat_name, a page at a time; an account filter out of reach is 404.",
    authenticated: true,
    query: enrollmentListQuerySchema,
    success: { status: 200, description: 'Enrollments', schema: enrollmentListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: apiPaths.enrollments.create,
    tag: 'Enrollment',
    summary:
      "Enrolls a person of the account (their seat made on first use) or a device (named, with its technician's e-mail) under one of the account's profiles (manage enrollment): makes a one-week code, mails the link and answers it once. A profile of another account or a person not of the account is 400 naming the field.",
    authenticated: true,
    requestBody: enrollmentCreateSchema,
    success: {
      status: 201,
      description: 'Enrollment created, with its link',
      schema: enrollmentCreatedSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V2}/enrollment/{id}`,
    tag: 'Enrollment',
    summary: 'An enrollment the caller reaches (view enrollment); ETag is its version. Never its code.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Enrollment', schema: enrollmentSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'delete',
    path: `${UI_API_V2}/enrollment/{id}`,
    tag: 'Enrollment',
    summary:
      "Cancels an enrollment (manage enrollment): its code stops working and its waiting mail is dropped; an issued or redeemed one has its certificate revoked (a device's cessationOfOperation, a person's affiliationChanged) in the same transaction. One already cancelled is 409.",
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Enrollment cancelled', etag: true },
    failures: [400, 401, 403, 404, 409],
    ifMatch: { required: false, current: enrollmentSchema },
  },
  {
    method: 'get',
    path: `${UI_API_V2}/enrollment/{id}/status`,
    tag: 'Enrollment',
    summary: 'Where an enrollment stands (view enrollment), for a console waiting on the enrollee.',
    authenticated: true,
    pathParameters: ['id'],
    success: {
      status: 200,
      description: 'Enrollment status',
      schema: enrollmentStatusAnswerSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V2}/enrollment/{id}/resend`,
    tag: 'Enrollment',
    summary:
      'Sends a pending or expired enrollment again (manage enrollment): a new code and a new week, the old code and its waiting mail dead, the wrong codes forgotten; answers the new link once. Issued, redeemed or cancelled is 409.',
    authenticated: true,
    pathParameters: ['id'],
    success: {
      status: 200,
      description: 'Enrollment sent again, with its new link',
      schema: enrollmentCreatedSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 409],
    ifMatch: { required: false, current: enrollmentSchema },
  },
  {
    method: 'post',
    path: `${UI_API_V1}/enrollment/{id}/client-auth-certificate`,
    tag: 'Enrollment',
    summary:
      "Q-61 (decision 033): asks for a client-authentication certificate for the enrollment's person, who makes it through the enrollment link where they are; no certificate or key reaches the caller. Manage enrollment, then whoever may change that person, in a signed-in session. A device's enrollment, a cancelled or expired one, or one whose client certificate was made already is 409; asking again changes nothing.",
    authenticated: true,
    pathParameters: ['id'],
    success: {
      status: 200,
      description: 'The enrollment, its client certificate requested',
      schema: enrollmentSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 409],
  },
  {
    method: 'get',
    path: `${UI_API_V2}/seat/{id}`,
    tag: 'Enrollment',
    summary: 'A seat (a person or a device of an account) the caller reaches (view enrollment).',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Seat', schema: seatSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V2}/seat/{id}/enrollments`,
    tag: 'Enrollment',
    summary: "A seat's enrollments, newest first (view enrollment).",
    authenticated: true,
    pathParameters: ['id'],
    query: seatEnrollmentsQuerySchema,
    success: { status: 200, description: 'Enrollments', schema: enrollmentListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V2}/enrollment/{id}/{code}`,
    tag: 'Enrollment',
    summary:
      "Public: the enrollment as its mailed code opens it, for the enrollment page. An unknown id and a wrong code are both 404 and count against the enrollment (five stop it until a resend) and the client's address (as failed sign-ins do); 429 while either is exhausted, 403 (publicIssuanceDisabled) while the account's public issuance feature is off, 410 once the code expired, 409 once issued, redeemed or cancelled.",
    authenticated: false,
    pathParameters: ['id', 'code'],
    success: { status: 200, description: 'The enrollment, for its enrollee', schema: publicEnrollmentSchema },
    failures: [400, 403, 404, 409, 410, 429],
  },
  {
    method: 'get',
    path: `${UI_API_V2}/enrollment/{id}/{code}/certificate`,
    tag: 'Enrollment',
    summary:
      'Public: the certificate of an issued or redeemed enrollment again, with its chain, to install it in a keystore later (the import failed, or the token moved to another computer). Pending or cancelled is 409, expired 410; the code is judged as for the GET.',
    authenticated: false,
    pathParameters: ['id', 'code'],
    success: {
      status: 200,
      description: 'The issued certificate, with its chain (issuing CA, root), PEM',
      schema: enrollmentCertificateSchema,
    },
    failures: [400, 403, 404, 409, 410, 429],
  },
  {
    method: 'post',
    path: `${UI_API_V2}/enrollment/{id}/{code}/certificate`,
    tag: 'Enrollment',
    summary:
      "Public: issues the enrollment's certificate from the enrollee's CSR under the profile's policy, with the subject values the request gives and the policy allows, and moves the enrollment to issued in the same transaction: one certificate per enrollment, a second request is 409. A key or subject the profile refuses is 400 naming the field. The code is judged as for the GET.",
    authenticated: false,
    pathParameters: ['id', 'code'],
    requestBody: enrollmentCertificateRequestSchema,
    success: {
      status: 201,
      description: 'Certificate issued, with its chain (issuing CA, root), PEM',
      schema: enrollmentCertificateSchema,
    },
    failures: [400, 403, 404, 409, 410, 413, 415, 429],
  },
  {
    method: 'get',
    path: `${UI_API_V2}/enrollment/{id}/{code}/client-auth-certificate`,
    tag: 'Enrollment',
    summary:
      'Public (decision 033): the client-authentication certificate an administrator asked for the enrollee, in whose user name it is issued, and whether it was made. Nothing asked for, or cancelled, is 409, a pending link expired 410; the code is judged as for the GET of the enrollment.',
    authenticated: false,
    pathParameters: ['id', 'code'],
    success: {
      status: 200,
      description: 'The client certificate asked for',
      schema: publicClientAuthOfferSchema,
    },
    failures: [400, 403, 404, 409, 410, 429],
  },
  {
    method: 'post',
    path: `${UI_API_V2}/enrollment/{id}/{code}/client-auth-certificate`,
    tag: 'Enrollment',
    summary:
      "Public (decision 033): issues the client-authentication certificate asked for the enrollee from the CSR their browser made, in the person's name whatever the CSR says, and registers it on the person's client certificates; once per enrollment (409 after). The answer holds no key: it never left the enrollee.",
    authenticated: false,
    pathParameters: ['id', 'code'],
    requestBody: clientAuthGenerateSchema,
    success: {
      status: 201,
      description: 'Certificate issued, with its chain (issuing CA, root), PEM',
      schema: publicClientAuthIssuedSchema,
    },
    failures: [400, 403, 404, 409, 410, 413, 415, 429],
  },
  {
    method: 'put',
    path: `${UI_API_V2}/enrollment/{id}/{code}/redeem`,
    tag: 'Enrollment',
    summary:
      'Public, without a body: the certificate sits in the keystore; the enrollment moves from issued to redeemed, once (409 otherwise). The code is judged as for the GET.',
    authenticated: false,
    pathParameters: ['id', 'code'],
    success: { status: 204, description: 'Enrollment redeemed' },
    failures: [400, 403, 404, 409, 429],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/user/{id}/client-auth-certificate/{certId}/enable`,
    tag: 'Client-authentication certificates',
    summary:
      'Enables or disables a client-authentication certificate (If-Match required); a disabled one signs nobody in from the next attempt. Enabling needs a signed-in session (403 sessionRequired).',
    authenticated: true,
    pathParameters: ['id', 'certId'],
    requestBody: clientAuthEnableSchema,
    success: { status: 204, description: 'Enabled or disabled', etag: true },
    failures: [400, 401, 403, 404, 413, 415, 428],
    ifMatch: { required: true, current: clientAuthCertificateSchema },
  },
  {
    method: 'post',
    path: `${UI_API_V1}/user/{id}/sendSetupCacBasedLoginEmail`,
    tag: 'Client-authentication certificates',
    summary:
      'Mails a person that certificate sign-in is being set up for them, with a link to their own client-certificate page (whoever may change the person). 429 with Retry-After within a minute of the last.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Mail queued' },
    failures: [400, 401, 403, 404, 429],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/service-user/{id}/client-auth-certificate`,
    tag: 'Service users',
    summary:
      "A service user's client-authentication certificates, newest first (view user or any manage-user permission).",
    authenticated: true,
    pathParameters: ['id'],
    query: clientAuthCertificateListQuerySchema,
    success: {
      status: 200,
      description: 'Client-authentication certificates',
      schema: clientAuthCertificateListSchema,
    },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/service-user/{id}/client-auth-certificate`,
    tag: 'Service users',
    summary:
      'Registers a client-authentication certificate for a service user (whoever may change it), in a signed-in session. Generate: the subject is its user name and primary account name; upload: one X.509 certificate, PEM or DER, not expired, at most 4 KB (413); a duplicate is 409 inUse.',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: v.union([clientAuthGenerateSchema, clientAuthUploadSchema]),
    certificateBody:
      'JSON { csr } (generate: the platform CA issues; the answer adds certificate and chain, PEM) or { certificate } (upload: PEM text or base64 DER), or the certificate file itself, PEM or DER, with Content-Type application/x-x509-ca-cert, at most 4096 bytes.',
    success: {
      status: 201,
      description: 'Certificate registered; after generation with the certificate and its chain',
      schema: v.union([clientAuthGeneratedSchema, v.object({ item: clientAuthCertificateSchema })]),
      etag: true,
    },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/service-user/{id}/client-auth-certificate/{certId}/enable`,
    tag: 'Service users',
    summary:
      'Enables or disables a client-authentication certificate (If-Match required); a disabled one signs nobody in from the next attempt. Enabling needs a signed-in session (403 sessionRequired).',
    authenticated: true,
    pathParameters: ['id', 'certId'],
    requestBody: clientAuthEnableSchema,
    success: { status: 204, description: 'Enabled or disabled', etag: true },
    failures: [400, 401, 403, 404, 413, 415, 428],
    ifMatch: { required: true, current: clientAuthCertificateSchema },
  },
  {
    method: 'get',
    path: apiPaths.serviceUsers.list,
    tag: 'Service users',
    summary:
      'The service users the caller reaches (view user or any manage-user permission), filtered by q, status (enabled, disabled, expired) and account_id, sorted and a page at a time; an account filter out of reach is 404.',
    authenticated: true,
    query: serviceUserListQuerySchema,
    success: { status: 200, description: 'Service users', schema: serviceUserListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.serviceUsers.export,
    tag: 'Service users',
    summary: 'The same service users, filtered and sorted, all of them, as a CSV attachment (text/csv).',
    authenticated: true,
    query: serviceUserExportQuerySchema,
    success: { status: 200, description: 'CSV file, header row first' },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: apiPaths.serviceUsers.list,
    tag: 'Service users',
    summary:
      "Makes a service user (manage user and manage user of the scope its primary account gives, in a signed-in session) with its accounts, roles (each held by the caller and fitting it) and first API token; the answer holds the token's value, shown this once (Cache-Control: no-store). A name taken by any user is 409 inUse.",
    authenticated: true,
    requestBody: serviceUserCreateSchema,
    success: {
      status: 201,
      description: 'Service user made, with its first token and its value',
      schema: serviceUserCreatedSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/service-user/{id}`,
    tag: 'Service users',
    summary: 'A service user the caller reaches; ETag is its version.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Service user', schema: serviceUserSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/service-user/{id}`,
    tag: 'Service users',
    summary:
      "Replaces a service user's name, description, e-mail and end date (manage user of its scope, holding all it holds); If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: serviceUserUpdateSchema,
    success: { status: 204, description: 'Service user changed', etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: serviceUserSchema },
  },
  {
    method: 'put',
    path: `${UI_API_V1}/service-user/{id}/access`,
    tag: 'Service users',
    summary:
      "Replaces a service user's accounts beyond the primary one and its roles, under the rules of PUT user/{id}/access (reach, manage user of its scope, holding all it holds, granting only what one holds, roles fitting it); If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: userAccessSchema,
    success: { status: 204, description: 'Accounts and roles replaced', etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: serviceUserSchema },
  },
  {
    method: 'put',
    path: `${UI_API_V1}/service-user/{id}/enable`,
    tag: 'Service users',
    summary:
      'Enables or disables a service user; its tokens stop or work again on the next request. If-Match is required.',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: userEnableSchema,
    success: { status: 204, description: 'Enabled state set', etag: true },
    failures: [400, 401, 403, 404, 413, 415],
    ifMatch: { required: true, current: serviceUserSchema },
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/service-user/{id}`,
    tag: 'Service users',
    summary:
      'Deletes a service user and its API tokens, and revokes the certificates it owns (affiliationChanged).',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Service user deleted' },
    failures: [400, 401, 403, 404],
    ifMatch: { required: false, current: serviceUserSchema },
  },
  {
    method: 'get',
    path: `${UI_API_V1}/service-user/{id}/api-tokens`,
    tag: 'Service users',
    summary:
      "A service user's API tokens, newest first, never their values (view user or any manage-user permission); status=active (the default) leaves out revoked and expired ones.",
    authenticated: true,
    pathParameters: ['id'],
    query: apiTokenListQuerySchema,
    success: { status: 200, description: 'API tokens', schema: apiTokenListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/service-user/{id}/api-tokens`,
    tag: 'Service users',
    summary:
      "Makes an API token for a service user (whoever may change it, in a signed-in session); its end date may not pass the service user's. The answer holds its value, shown this once (Cache-Control: no-store).",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: apiTokenCreateSchema,
    success: {
      status: 201,
      description: 'API token made, with its value',
      schema: apiTokenCreatedSchema,
      etag: true,
    },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/service-user/{id}/api-tokens/{tokenId}`,
    tag: 'Service users',
    summary: 'One API token of a service user, without its value; ETag is its version.',
    authenticated: true,
    pathParameters: ['id', 'tokenId'],
    success: { status: 200, description: 'API token', schema: apiTokenSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/service-user/{id}/api-tokens/{tokenId}`,
    tag: 'Service users',
    summary:
      "Sets a service user's API token's end date (whoever may change the service user, in a signed-in session; not past the service user's end date).",
    authenticated: true,
    pathParameters: ['id', 'tokenId'],
    requestBody: apiTokenUpdateSchema,
    success: { status: 204, description: 'End date set', etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: false, current: apiTokenSchema },
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/service-user/{id}/api-tokens/{tokenId}`,
    tag: 'Service users',
    summary:
      "Revokes a service user's API token (whoever may change the service user); it stops on the next request.",
    authenticated: true,
    pathParameters: ['id', 'tokenId'],
    success: { status: 204, description: 'API token revoked' },
    failures: [400, 401, 403, 404],
    ifMatch: { required: false, current: apiTokenSchema },
  },
  {
    method: 'get',
    path: apiPaths.roles.list,
    tag: 'Roles',
    summary:
      'The built-in roles and the custom roles of the accounts whose users the caller reaches (view or manage user role, or manage user), each with its account name, the count of its holders the caller reaches and whether the caller may edit it; sortable by name, application, type, users and created; an account filter out of reach is 404.',
    authenticated: true,
    query: roleListQuerySchema,
    success: { status: 200, description: 'Roles', schema: roleListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/role/{id}`,
    tag: 'Roles',
    summary:
      'A role the caller reaches (view or manage user role, or manage user), with the count of its holders the caller reaches and whether the caller may edit it; ETag is its version.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Role', schema: roleDetailsSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: apiPaths.roles.list,
    tag: 'Roles',
    summary:
      'Creates (or, with cloned_from, clones) a custom role of an account the caller reaches (manage user role), granting only permissions the caller holds; Location names it.',
    authenticated: true,
    requestBody: roleCreateSchema,
    success: { status: 201, description: 'Role created', schema: roleSchema, etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: apiPaths.roles.export,
    tag: 'Roles',
    summary: 'The same roles, filtered and sorted, all of them, as a CSV attachment (text/csv).',
    authenticated: true,
    query: roleExportQuerySchema,
    success: { status: 200, description: 'CSV file, header row first' },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.permissionGroups,
    tag: 'Roles',
    summary:
      "An application's permission groups, each permission marked grantable when the caller holds it and the account's type allows it (read roles).",
    authenticated: true,
    query: permissionGroupQuerySchema,
    success: { status: 200, description: 'Permission groups', schema: permissionGroupListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.roles.unique,
    tag: 'Roles',
    summary:
      'Whether a name is free for a new custom role of that account and application (no active custom role nor built-in role has it, whatever the case).',
    authenticated: true,
    query: roleUniqueQuerySchema,
    success: { status: 200, description: 'Whether the name is free', schema: roleUniqueSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/role/{id}/users`,
    tag: 'Roles',
    summary:
      "A page of a role's holders the caller reaches, by name (read roles and read users); total is the count the archive dialog shows.",
    authenticated: true,
    pathParameters: ['id'],
    query: roleUsersQuerySchema,
    success: { status: 200, description: 'Holders', schema: userListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/role/{id}/users`,
    tag: 'Roles',
    summary:
      'Gives a role to users and takes it from others, all or none (the permission to change each user; never oneself, a stronger user, or a role granting more than the caller holds).',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: roleUsersUpdateSchema,
    success: { status: 204, description: 'Holders changed' },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/role/{id}`,
    tag: 'Roles',
    summary:
      "Replaces a custom role's name, description and permissions (manage user role; the role's and the new permissions held by the caller); If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: roleUpdateSchema,
    success: { status: 204, description: 'Role changed' },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: roleDetailsSchema },
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/role/{id}`,
    tag: 'Roles',
    summary:
      'Archives a custom role (manage user role; its permissions held by the caller): its holders lose what it grants at once; If-Match is required.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Role archived' },
    failures: [400, 401, 403, 404, 409],
    ifMatch: { required: true, current: roleDetailsSchema },
  },
  {
    method: 'get',
    path: apiPaths.organizations.list,
    tag: 'Organizations',
    summary: "An account's organizations (the caller's primary account by default), a page at a time.",
    authenticated: true,
    query: organizationListQuerySchema,
    success: { status: 200, description: 'Organizations', schema: organizationListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: apiPaths.organizations.list,
    tag: 'Organizations',
    summary: 'Creates an organization in an account (manage organization); Location names it.',
    authenticated: true,
    requestBody: organizationCreateSchema,
    success: { status: 201, description: 'Organization created', schema: organizationSchema, etag: true },
    failures: [400, 401, 403, 404, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/organizations/{id}`,
    tag: 'Organizations',
    summary: 'An organization with its contact count; ETag is its version.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Organization', schema: organizationSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/organizations/{id}`,
    tag: 'Organizations',
    summary: "Replaces an organization's fields (manage organization); If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: organizationUpdateSchema,
    success: { status: 204, description: 'Organization changed' },
    failures: [400, 401, 403, 404, 413, 415],
    ifMatch: { required: true, current: organizationSchema },
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/organizations/{id}`,
    tag: 'Organizations',
    summary: 'Deletes an organization and its contacts (manage organization); If-Match is required.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Organization deleted' },
    failures: [400, 401, 403, 404],
    ifMatch: { required: true, current: organizationSchema },
  },
  {
    method: 'get',
    path: `${UI_API_V1}/organizations/{id}/contacts`,
    tag: 'Organizations',
    summary: "An organization's contacts by last and first name, a page at a time.",
    authenticated: true,
    pathParameters: ['id'],
    query: contactListQuerySchema,
    success: { status: 200, description: 'Contacts', schema: contactListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: `${UI_API_V1}/organizations/{id}/contacts`,
    tag: 'Organizations',
    summary: 'Adds a contact to an organization (manage organization); Location names it.',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: contactFieldsSchema,
    success: { status: 201, description: 'Contact created', schema: contactSchema, etag: true },
    failures: [400, 401, 403, 404, 413, 415],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/organizations/{id}/contacts/{contactId}`,
    tag: 'Organizations',
    summary: 'A contact of the organization; ETag is its version.',
    authenticated: true,
    pathParameters: ['id', 'contactId'],
    success: { status: 200, description: 'Contact', schema: contactSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/organizations/{id}/contacts/{contactId}`,
    tag: 'Organizations',
    summary: "Replaces a contact's fields (manage organization); If-Match is required.",
    authenticated: true,
    pathParameters: ['id', 'contactId'],
    requestBody: contactFieldsSchema,
    success: { status: 204, description: 'Contact changed' },
    failures: [400, 401, 403, 404, 413, 415],
    ifMatch: { required: true, current: contactSchema },
  },
  {
    method: 'delete',
    path: `${UI_API_V1}/organizations/{id}/contacts/{contactId}`,
    tag: 'Organizations',
    summary: 'Deletes a contact (manage organization); If-Match is required.',
    authenticated: true,
    pathParameters: ['id', 'contactId'],
    success: { status: 204, description: 'Contact deleted' },
    failures: [400, 401, 403, 404],
    ifMatch: { required: true, current: contactSchema },
  },
  {
    method: 'get',
    path: apiPaths.tenants.list,
    tag: 'Accounts',
    summary: 'The accounts the caller sees (view account), filtered, sorted and a page at a time.',
    authenticated: true,
    query: tenantListQuerySchema,
    success: { status: 200, description: 'Accounts', schema: tenantListSchema },
    failures: [400, 401, 403],
  },
  {
    method: 'get',
    path: apiPaths.tenants.export,
    tag: 'Accounts',
    summary: 'The same accounts, filtered and sorted, all of them, as a CSV attachment (text/csv).',
    authenticated: true,
    query: tenantExportQuerySchema,
    success: { status: 200, description: 'CSV file, header row first' },
    failures: [400, 401, 403],
  },
  ...[apiPaths.tenants.expiring, apiPaths.tenants.expiringAccounts].map(
    (path): Operation => ({
      method: 'get',
      path,
      tag: 'Accounts',
      summary: 'How many active accounts the caller sees end within 30 and within 60 days.',
      authenticated: true,
      success: { status: 200, description: 'Counts keyed "30" and "60"', schema: expiringTenantsSchema },
      failures: [401, 403],
    }),
  ),
  {
    method: 'post',
    path: apiPaths.tenants.list,
    tag: 'Accounts',
    summary:
      'Creates a standard or partner account with its first administrator (manage account; system or partner scope).',
    authenticated: true,
    requestBody: tenantCreateSchema,
    success: { status: 201, description: 'Account created; Location names it', schema: tenantSchema },
    failures: [400, 401, 403, 409, 413, 415],
  },
  {
    method: 'delete',
    path: apiPaths.tenants.list,
    tag: 'Accounts',
    summary:
      'Deletes accounts with their users, roles and organizations, all or none (manage account), and revokes their certificates (cessationOfOperation).',
    authenticated: true,
    query: tenantDeleteQuerySchema,
    success: { status: 204, description: 'Accounts deleted' },
    failures: [400, 401, 403, 404, 409],
  },
  ...[`${UI_API_V1}/tenant/{id}`, `${UI_API_V1}/account/{id}`].map(
    (path): Operation => ({
      method: 'get',
      path,
      tag: 'Accounts',
      summary: 'The whole record of an account the caller sees (view account); ETag is its version.',
      authenticated: true,
      pathParameters: ['id'],
      success: { status: 200, description: 'Account', schema: tenantSchema, etag: true },
      failures: [400, 401, 403, 404],
    }),
  ),
  {
    method: 'put',
    path: `${UI_API_V1}/tenant/{id}`,
    tag: 'Accounts',
    summary: "Changes an account's name, language and service period (manage account); If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: tenantUpdateSchema,
    success: { status: 204, description: 'Account changed' },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: tenantSchema },
  },
  {
    method: 'post',
    path: `${UI_API_V1}/tenant/{id}/unlink`,
    tag: 'Accounts',
    summary:
      'Unlinks an account from its external identity product, on the typed word UNLINK (manage account).',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: tenantUnlinkSchema,
    success: { status: 204, description: 'Account unlinked' },
    failures: [400, 401, 403, 404, 409, 415],
    ifMatch: { required: false, current: tenantSchema },
  },
  ...(
    [
      [
        'deactivate',
        'Deactivates an account and ends its users’ sessions; they may sign in again, holding no permission (manage account; decision 017).',
        'Account deactivated, or already inactive',
      ],
      ['activate', 'Reactivates an account (manage account; decision 017).', 'Account active'],
    ] as const
  ).map(
    ([action, summary, description]): Operation => ({
      method: 'post',
      path: `${UI_API_V1}/tenant/{id}/${action}`,
      tag: 'Accounts',
      summary,
      authenticated: true,
      pathParameters: ['id'],
      success: { status: 204, description },
      failures: [401, 403, 404, 409],
      ifMatch: { required: true, current: tenantSchema },
    }),
  ),
  {
    method: 'get',
    path: `${UI_API_V1}/features/account/{id}`,
    tag: 'Accounts',
    summary:
      'Every feature of the catalogue for an account, its stored value or its default, whether the caller may change them, and their version (view account).',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Account features', schema: accountFeatureListSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/features/account/{id}`,
    tag: 'Accounts',
    summary:
      "Sets an account's features (manage account; not a partner's own primary account): trial and key-locker exclude each other, trial needs an end date, no end date after the account's, public issuance stays on while key-locker is on. If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: accountFeatureUpdateSchema,
    success: { status: 204, description: 'Features set' },
    failures: [400, 401, 403, 404, 413, 415],
    ifMatch: { required: true, current: accountFeatureListSchema },
  },
  {
    method: 'put',
    path: `${ACCOUNT_API_V1}/tenants/{id}/federation`,
    tag: 'Accounts',
    summary: 'Links an account to an account of an external identity product (system scope, manage tenant).',
    authenticated: true,
    pathParameters: ['id'],
    requestBody: tenantFederationSchema,
    success: { status: 204, description: 'Account linked' },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: false, current: tenantSchema },
  },
  {
    method: 'get',
    path: apiPaths.featureFlags.list,
    tag: 'Feature flags',
    summary: 'Every platform feature flag and whether it is on.',
    authenticated: true,
    success: { status: 200, description: 'Feature flags', schema: featureFlagListSchema },
    failures: [401],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/feature-flag/{name}`,
    tag: 'Feature flags',
    summary: 'One feature flag.',
    authenticated: true,
    pathParameters: ['name'],
    success: { status: 200, description: 'Feature flag', schema: featureFlagSchema },
    failures: [400, 401],
  },
  {
    method: 'put',
    path: `${UI_API_V1}/feature-flag/{name}`,
    tag: 'Feature flags',
    summary: 'Turns a feature flag on or off (system scope, manage system settings).',
    authenticated: true,
    pathParameters: ['name'],
    requestBody: featureFlagUpdateSchema,
    success: { status: 204, description: 'Feature flag changed' },
    failures: [400, 401, 403, 415],
  },
  {
    method: 'get',
    path: apiPaths.locales,
    tag: 'Reference',
    summary: 'The languages of the platform.',
    authenticated: false,
    success: { status: 200, description: 'Languages', schema: listSchema(localeEntrySchema) },
    failures: [],
  },
  {
    method: 'get',
    path: apiPaths.openApi,
    tag: 'Reference',
    summary: 'This document.',
    authenticated: false,
    success: { status: 200, description: 'OpenAPI 3.1 document' },
    failures: [],
  },
  {
    method: 'get',
    path: apiPaths.certificateProfiles.profiles,
    tag: 'Certificate profiles',
    summary:
      'The certificate profiles of the accounts the caller reaches (view or manage profile), a page at a time (up to 99999999); filtered by name and account, sortable by name, account, validity and updated; an account filter out of reach is 404.',
    authenticated: true,
    query: certificateProfileListQuerySchema,
    success: { status: 200, description: 'Profiles', schema: certificateProfileListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'post',
    path: apiPaths.certificateProfiles.profiles,
    tag: 'Certificate profiles',
    summary:
      'Creates a certificate profile of an account the caller reaches (manage profile); names are unique per account whatever the case; Location names it.',
    authenticated: true,
    requestBody: certificateProfileCreateSchema,
    success: { status: 201, description: 'Profile created', schema: certificateProfileSchema, etag: true },
    failures: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: 'get',
    path: `${CA_API_V1}/profile/{id}`,
    tag: 'Certificate profiles',
    summary: 'A certificate profile the caller reaches (view or manage profile); ETag is its version.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Profile', schema: certificateProfileSchema, etag: true },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'put',
    path: `${CA_API_V1}/profile/{id}`,
    tag: 'Certificate profiles',
    summary:
      "Replaces a certificate profile's name, description and policy (manage profile); If-Match is required.",
    authenticated: true,
    pathParameters: ['id'],
    requestBody: certificateProfileUpdateSchema,
    success: { status: 204, description: 'Profile changed' },
    failures: [400, 401, 403, 404, 409, 413, 415],
    ifMatch: { required: true, current: certificateProfileSchema },
  },
  {
    method: 'delete',
    path: `${CA_API_V1}/profile/{id}`,
    tag: 'Certificate profiles',
    summary:
      'Deletes a certificate profile (manage profile); certificates issued under it keep its name. If-Match is honoured when sent.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 204, description: 'Profile deleted' },
    failures: [400, 401, 403, 404],
    ifMatch: { required: false, current: certificateProfileSchema },
  },
  {
    method: 'get',
    path: apiPaths.certificateProfiles.templates,
    tag: 'Certificate profiles',
    summary:
      'The profiles the caller reaches offered as templates of cert_type end_entity (view template or read profiles), optionally of one account.',
    authenticated: true,
    query: certificateTemplateQuerySchema,
    success: { status: 200, description: 'Templates', schema: certificateTemplateListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/account/{id}/template`,
    tag: 'Certificate profiles',
    summary:
      "An account's templates, all of them (view template or read profiles); an account out of reach is 404.",
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Templates', schema: certificateTemplateListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/account/{id}/profile`,
    tag: 'Certificate profiles',
    summary:
      "An account's certificate profiles, all of them (view or manage profile); an account out of reach is 404.",
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Profiles', schema: certificateProfileListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.certificateProfiles.enrollmentMethods,
    tag: 'Reference',
    summary: 'The enrollment methods (DTA, DDC), from the database; any signed-in user.',
    authenticated: true,
    success: { status: 200, description: 'Enrollment methods', schema: enrollmentMethodListSchema },
    failures: [401],
  },
  {
    method: 'get',
    path: apiPaths.certificateProfiles.keystoreTypes,
    tag: 'Reference',
    summary:
      'The keystore types with their category (Platform, HWToken, SWToken), source and keystore location, from the database; any signed-in user.',
    authenticated: true,
    success: { status: 200, description: 'Keystore types', schema: keystoreTypeListSchema },
    failures: [401],
  },
  {
    method: 'get',
    path: apiPaths.certificateProfiles.nationalities,
    tag: 'Reference',
    summary:
      'Nationalities: the countries the platform deals with, by ISO 3166 code, named in the language asked for (en_US unless `locale` says otherwise); any signed-in user.',
    authenticated: true,
    query: nationalityQuerySchema,
    success: { status: 200, description: 'Nationalities', schema: nationalityListSchema },
    failures: [400, 401],
  },
  {
    method: 'get',
    path: apiPaths.auditLog.list,
    tag: 'Audit log',
    summary:
      'Audit events of the accounts the caller reaches (view audit log; events of no account or of a deleted account, system scope only), filtered by from and to (ISO 8601 instants with offset), action, status, resource_type, user (the actor id) and account_id, sorted by timestamp (desc unless sort=timestamp:asc) and a page at a time (20 unless limit says otherwise); an account filter out of reach is 404.',
    authenticated: true,
    query: auditLogListQueryObjectSchema,
    success: { status: 200, description: 'Audit events', schema: auditEventListSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.auditLog.export,
    tag: 'Audit log',
    summary:
      "The list's filters as a file (view audit log), streamed: format=csv in the list's sort, cells a spreadsheet would run defused (text/csv); format=jsonl one event a line in the chain's order, then a proof line {proof: {checkpoint, public_keys, filtered}} with the newest checkpoint at or before the last event (application/jsonl), which npm run audit:verify checks offline.",
    authenticated: true,
    query: auditLogExportQueryObjectSchema,
    success: {
      status: 200,
      description: 'A CSV file with its header row first, or JSON Lines ending with the proof line',
    },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: apiPaths.auditLog.checkpoints,
    tag: 'Audit log',
    summary:
      "The signed checkpoints of the audit chain's head, newest first, with the Ed25519 public keys that check them (view audit log), as an attachment to keep apart from the server.",
    authenticated: true,
    query: auditCheckpointListQuerySchema,
    success: { status: 200, description: 'Checkpoints and their keys', schema: auditCheckpointListSchema },
    failures: [400, 401, 403],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/audit-log/{id}`,
    tag: 'Audit log',
    summary: 'One audit event the caller reaches (view audit log), with its hash and the previous hash.',
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Audit event', schema: auditEventSchema },
    failures: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: `${UI_API_V1}/audit-log/{id}/verify`,
    tag: 'Audit log',
    summary:
      "Whether the event's own hash holds, the chain from the first event through it (and on to the newest checkpoint when later) is intact, and the newest checkpoint is signed by a registered key with its head still stored; if not, where it breaks (altered, unlinked, missing). The chain is read in batches, so memory stays flat.",
    authenticated: true,
    pathParameters: ['id'],
    success: { status: 200, description: 'Verification', schema: auditVerificationSchema },
    failures: [400, 401, 403, 404],
  },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is not valid; the message names the field or header.',
  401: 'Not signed in, or the token is no longer valid.',
  403: 'Not allowed.',
  404: 'Not found.',
  409: 'Conflicts with the current state.',
  410: 'Gone: the link has expired.',
  412: 'If-Match names a version that is no longer the current one; `current` is the object now, ETag its version.',
  413: 'Request body larger than 1 MiB.',
  415: 'Request body is not JSON.',
  422: `The ${IDEMPOTENCY_KEY_HEADER} was already used for a different request.`,
  428: 'If-Match is required: send the ETag the object was read with.',
  429: 'Too many attempts; see Retry-After.',
};

/** Every code an error answer may carry: the contract's validation codes, then those of other failures. */
const ERROR_CODES = [...VALIDATION_CODES, ...API_ERROR_CODES];

/** The contract's error body with its codes listed, so a client generated from the document knows them. */
const documentedErrorSchema = v.object({
  error: v.object({ ...apiErrorSchema.entries.error.entries, code: v.optional(v.picklist(ERROR_CODES)) }),
});

const ERROR_DESCRIPTION =
  'Every error answer. `field` is the dot path of the request value at fault (`service_period.to`) or the name of the header (`If-Match`, `Idempotency-Key`); `code` is stable for clients to act on: a validation rule of the field (`required`, `invalidEmail`, `endDateNotInFuture` …) or the kind of failure (`inUse`, `conflict`, `notFound`, `forbidden`, `preconditionFailed`, `preconditionRequired`, `unsupportedMediaType`, `tooLarge`, `malformed`, `throttled`, `sessionRequired`, `ownUserOnly`, `userExceedsYours`, `limitReached`). `message` is English text for people reading the raw answer; clients never parse it.';

/** 409 of a request sent with an Idempotency-Key, besides what the operation itself may answer. */
const IDEMPOTENT_CONFLICT = `${STATUS_TEXT[409]} With ${IDEMPOTENCY_KEY_HEADER}: the first request with this key is still being processed (Retry-After: 1), or, without Retry-After, its outcome is unknown and the object must be checked before the change is sent again under a new key.`;

const MUTATING_METHODS: ReadonlySet<Method> = new Set(['post', 'put', 'delete']);

/** Whether the operation takes an Idempotency-Key (every mutating one whose answer carries no credentials). */
export function takesIdempotencyKey(operation: Pick<Operation, 'method' | 'path'>): boolean {
  return MUTATING_METHODS.has(operation.method) && !isIdempotencyExempt(operation.path);
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description: `A Structured Field string (a UUID in quotes, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters) naming this change; draft-ietf-httpapi-idempotency-key-header. The answer is stored for 24 hours per caller and key, and a request sent again with the same key gets it again, marked ${IDEMPOTENCY_REPLAYED_HEADER}: true, without the change being made twice. 401, 403, 429 and 5xx answers are not stored.`,
  schema: { type: 'string', maxLength: IDEMPOTENCY_KEY_MAX_LENGTH + 2 },
};

const REPLAYED_HEADER = {
  [IDEMPOTENCY_REPLAYED_HEADER]: {
    description: `"true" when this answer was stored for an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}.`,
    schema: { type: 'string', enum: ['true'] },
  },
};

const ETAG_HEADER = {
  ETag: {
    description: 'The version of the object, quoted: send it as If-Match to change it.',
    schema: { type: 'string' },
  },
};

function ifMatchParameter(required: boolean) {
  return {
    name: 'If-Match',
    in: 'header',
    required,
    description: required
      ? 'The ETag the object was read with (or `*`); without it the change answers 428, with an older one 412.'
      : 'The ETag the object was read with (or `*`); with an older one the change answers 412.',
    schema: { type: 'string' },
  };
}

function describeOperation(operation: Operation): JsonSchema {
  const errorRef = { $ref: '#/components/schemas/Error' };
  const keyed = takesIdempotencyKey(operation);
  const { ifMatch } = operation;
  const failures = new Set([
    ...operation.failures,
    ...(keyed ? [400, 409, 422] : []),
    ...(ifMatch ? [400, ...(ifMatch.required ? [428] : [])] : []),
  ]);
  const successHeaders = {
    ...(operation.success.etag ? ETAG_HEADER : {}),
    ...(keyed ? REPLAYED_HEADER : {}),
  };
  const parameters = [
    ...(keyed ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...(ifMatch ? [ifMatchParameter(ifMatch.required)] : []),
    ...(operation.pathParameters ?? []).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(operation.query?.entries ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: schema.type !== 'optional',
      schema: toJsonSchema(schema),
    })),
  ];
  return {
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.authenticated ? { security: [{ bearer: [] }] } : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.requestBody
      ? {
          requestBody: {
            required: true,
            ...(operation.certificateBody ? { description: operation.certificateBody } : {}),
            content: {
              'application/json': { schema: toJsonSchema(operation.requestBody) },
              ...(operation.certificateBody
                ? { [CLIENT_AUTH_UPLOAD_MEDIA_TYPE]: { schema: { type: 'string', format: 'binary' } } }
                : {}),
            },
          },
        }
      : {}),
    ...(operation.csvBody
      ? {
          requestBody: {
            required: true,
            description: operation.csvBody,
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
        }
      : {}),
    responses: {
      [operation.success.status]: {
        description: operation.success.description,
        ...(Object.keys(successHeaders).length > 0 ? { headers: successHeaders } : {}),
        ...(operation.success.schema
          ? { content: { 'application/json': { schema: toJsonSchema(operation.success.schema) } } }
          : {}),
        ...(operation.success.binary
          ? { content: { [operation.success.binary]: { schema: { type: 'string', format: 'binary' } } } }
          : {}),
      },
      ...Object.fromEntries(
        [...[...failures].sort((a, b) => a - b), 500].map((status) => [
          status,
          {
            description:
              status === 409 && keyed
                ? IDEMPOTENT_CONFLICT
                : (STATUS_TEXT[status] ?? 'Internal server error.'),
            content: { 'application/json': { schema: errorRef } },
          },
        ]),
      ),
      ...(ifMatch
        ? {
            412: {
              description: STATUS_TEXT[412],
              headers: ETAG_HEADER,
              content: {
                'application/json': {
                  schema: toJsonSchema(
                    v.object({ ...documentedErrorSchema.entries, current: ifMatch.current }),
                  ),
                },
              },
            },
          }
        : {}),
    },
  };
}

/** The OpenAPI 3.1 description of the platform API, built once from the contract. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] ??= {};
    const item = paths[operation.path];
    if (item) item[operation.method] = describeOperation(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trust platform API',
      version: '1',
      description: `Identity (${IDENTITY_API_V1}), console (${UI_API_V1}), account (${ACCOUNT_API_V1}) and certificate authority (${CA_API_V1}) endpoints. Errors are always { error: { status, message, field?, code? } }.`,
    },
    paths,
    components: {
      schemas: { Error: { ...toJsonSchema(documentedErrorSchema), description: ERROR_DESCRIPTION } },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A signed-in session's access token (a JWT), or an API token (`tct_` and 43 base64url characters).",
        },
      },
    },
  };
}
