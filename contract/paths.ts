/** Base paths of the platform, as the spec names them (overview §2, §7). */
export const CONSOLE_BASE_PATH = '/account';
export const ACCOUNTS_LIST_PATH = `${CONSOLE_BASE_PATH}/accounts`;
export const LOGIN_PATH = `${CONSOLE_BASE_PATH}/login`;
export const SETUP_LICENCE_PATH = `${CONSOLE_BASE_PATH}/setup-license`;
export const SETUP_USER_PATH = `${CONSOLE_BASE_PATH}/setup-user`;
export const UPDATE_LICENCE_ERROR_PATH = `${CONSOLE_BASE_PATH}/updateLicenseError`;
export const ACCOUNT_EXPIRED_ERROR_PATH = `${CONSOLE_BASE_PATH}/accountExpiredError`;
/** Where a sign-in the trust agent asked for ends (overview §2, R-10). */
export const TRUST_AGENT_SIGN_IN_DONE_PATH = `${CONSOLE_BASE_PATH}/dta-sign-in-success-info`;

/**
 * Path prefixes answered by the platform API: JSON errors from the server, never the console's HTML,
 * and never cached by the service worker.
 */
export const API_PATH_PREFIXES = [
  '/account/ui-api/',
  '/account/api/',
  '/imauth/',
  '/certificate-authority/',
] as const;

export function isApiPath(path: string): boolean {
  return API_PATH_PREFIXES.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix);
}

export const UI_API_V1 = '/account/ui-api/v1';
export const UI_API_V2 = '/account/ui-api/v2';
export const ACCOUNT_API_V1 = '/account/api/v1';
export const IDENTITY_API_V1 = '/imauth/api/v1';
export const CA_API_V1 = '/certificate-authority/api/v1';

/** Every endpoint of the platform API the console calls, in one place. */
export const apiPaths = {
  identity: {
    verifyUser: `${IDENTITY_API_V1}/login/verify`,
    login: `${IDENTITY_API_V1}/auth/login`,
    me: `${IDENTITY_API_V1}/auth/me`,
    /** The refresh cookie is scoped to this path and nothing else. */
    refresh: `${IDENTITY_API_V1}/refresh`,
    logout: `${IDENTITY_API_V1}/logout`,
    loginCustomization: `${IDENTITY_API_V1}/login/customization`,
    /** The signed-in user's storage secret, which wraps the keys of the console's offline data. */
    storageSecret: `${IDENTITY_API_V1}/storage-secret`,
    /** Public: where a person signs in with the certificate just installed (account administration §7). */
    clientAuthLoginUrl: `${ACCOUNT_API_V1}/clientAuthLoginUrl`,
  },
  setup: {
    status: `${UI_API_V1}/setup/status`,
    licence: `${UI_API_V1}/setup/license`,
    user: `${UI_API_V1}/setup/user`,
  },
  licence: {
    status: `${UI_API_V1}/license/status`,
    /** The installed platform licence and its system pools (decision 022 §3). */
    details: `${UI_API_V1}/license/details`,
    /** The system-wide use of an application. */
    usage: (app: string) => `${UI_API_V1}/license/usage/${encodeURIComponent(app)}`,
    /** Every licence section of an account the caller may see. */
    ofAccount: (id: string) => `${UI_API_V1}/account/${encodeURIComponent(id)}/licenses`,
    /** GET licence by app, PUT update licence by app (J-32, J-34). */
    byApp: (id: string, app: string) =>
      `${UI_API_V1}/account/${encodeURIComponent(id)}/license/${encodeURIComponent(app)}`,
    /** The use an application reports (J-36). */
    accountUsage: (id: string, app: string) =>
      `${UI_API_V1}/account/${encodeURIComponent(id)}/license/usage/${encodeURIComponent(app)}`,
    limits: (id: string, app: string) =>
      `${UI_API_V1}/license/limit/${encodeURIComponent(id)}/${encodeURIComponent(app)}`,
    /** Paged history, newest first (J-37, J-41). */
    history: (id: string) => `${UI_API_V1}/license/limit/${encodeURIComponent(id)}/history`,
    /** Every history row, oldest first: the CSV and the chart. */
    historyDetails: (id: string) => `${UI_API_V1}/license/limit/${encodeURIComponent(id)}/history-details`,
  },
  /** The audit log (overview §7, area P; decision 023). */
  auditLog: {
    list: `${UI_API_V1}/audit-log`,
    byId: (id: string) => `${UI_API_V1}/audit-log/${encodeURIComponent(id)}`,
    verify: (id: string) => `${UI_API_V1}/audit-log/${encodeURIComponent(id)}/verify`,
    /** The signed checkpoints of the chain head, to keep elsewhere. */
    checkpoints: `${UI_API_V1}/audit-log/checkpoints`,
    /** The filtered log as CSV or JSON Lines with the chain proof (`format=csv|jsonl`). */
    export: `${UI_API_V1}/audit-log/export`,
  },
  /** Account features (K-02, K-04). */
  accountFeatures: {
    byAccount: (id: string) => `${UI_API_V1}/features/account/${encodeURIComponent(id)}`,
  },
  tenants: {
    list: `${UI_API_V1}/tenants`,
    export: `${UI_API_V1}/tenants/export`,
    expiring: `${UI_API_V1}/tenants/expiring`,
    /** The spec's second name of the expiring-accounts call. */
    expiringAccounts: `${UI_API_V1}/account/expiringAccounts`,
    byId: (id: string) => `${UI_API_V1}/tenant/${encodeURIComponent(id)}`,
    accountById: (id: string) => `${UI_API_V1}/account/${encodeURIComponent(id)}`,
    unlink: (id: string) => `${UI_API_V1}/tenant/${encodeURIComponent(id)}/unlink`,
    deactivate: (id: string) => `${UI_API_V1}/tenant/${encodeURIComponent(id)}/deactivate`,
    activate: (id: string) => `${UI_API_V1}/tenant/${encodeURIComponent(id)}/activate`,
    federation: (id: string) => `${ACCOUNT_API_V1}/tenants/${encodeURIComponent(id)}/federation`,
  },
  organizations: {
    list: `${UI_API_V1}/organizations`,
    byId: (id: string) => `${UI_API_V1}/organizations/${encodeURIComponent(id)}`,
    contacts: (id: string) => `${UI_API_V1}/organizations/${encodeURIComponent(id)}/contacts`,
    contact: (id: string, contactId: string) =>
      `${UI_API_V1}/organizations/${encodeURIComponent(id)}/contacts/${encodeURIComponent(contactId)}`,
  },
  featureFlags: {
    list: `${UI_API_V1}/feature-flag/features`,
    byName: (name: string) => `${UI_API_V1}/feature-flag/${encodeURIComponent(name)}`,
  },
  users: {
    list: `${UI_API_V1}/user`,
    export: `${UI_API_V1}/user/export`,
    exists: `${UI_API_V1}/user/exists`,
    byId: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}`,
    applications: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/applications`,
    bulk: `${UI_API_V1}/user/bulk`,
    bulkValidate: `${UI_API_V1}/user/bulk/validate`,
    bulkJob: (jobId: string) => `${UI_API_V1}/user/bulk/${encodeURIComponent(jobId)}`,
    bulkRows: (jobId: string) => `${UI_API_V1}/user/bulk/${encodeURIComponent(jobId)}/rows`,
    bulkReport: (jobId: string) => `${UI_API_V1}/user/bulk/${encodeURIComponent(jobId)}/report`,
    password: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/password`,
    apiTokens: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/api-tokens`,
    enable: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/enable`,
    access: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/access`,
    verification: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/verification`,
    resetMail: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/email`,
    standardLogin: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/standard-login`,
    resendSsoEmail: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/resendSsoEmail`,
    mfa: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/mfa`,
    defaultManager: (id: string, appUrl: string) =>
      `${UI_API_V1}/user/${encodeURIComponent(id)}/defaultManager?appUrl=${encodeURIComponent(appUrl)}`,
    agreement: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/agreement`,
    /** Public: the mailed verification or invitation code. */
    verify: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/verify`,
    verifyHolder: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/verify/holder`,
    /** Public: the mailed password-reset code. */
    resetPassword: (id: string) => `${UI_API_V1}/user/${encodeURIComponent(id)}/reset-password`,
    apiToken: (id: string, tokenId: string) =>
      `${UI_API_V1}/user/${encodeURIComponent(id)}/api-tokens/${encodeURIComponent(tokenId)}`,
    clientAuthCertificates: (id: string) =>
      `${UI_API_V1}/user/${encodeURIComponent(id)}/client-auth-certificate`,
    clientAuthCertificateEnable: (id: string, certId: string) =>
      `${UI_API_V1}/user/${encodeURIComponent(id)}/client-auth-certificate/${encodeURIComponent(certId)}/enable`,
    sendSetupCacBasedLoginEmail: (id: string) =>
      `${UI_API_V1}/user/${encodeURIComponent(id)}/sendSetupCacBasedLoginEmail`,
  },
  serviceUsers: {
    list: `${UI_API_V1}/service-user`,
    export: `${UI_API_V1}/service-user/export`,
    byId: (id: string) => `${UI_API_V1}/service-user/${encodeURIComponent(id)}`,
    enable: (id: string) => `${UI_API_V1}/service-user/${encodeURIComponent(id)}/enable`,
    access: (id: string) => `${UI_API_V1}/service-user/${encodeURIComponent(id)}/access`,
    apiTokens: (id: string) => `${UI_API_V1}/service-user/${encodeURIComponent(id)}/api-tokens`,
    apiToken: (id: string, tokenId: string) =>
      `${UI_API_V1}/service-user/${encodeURIComponent(id)}/api-tokens/${encodeURIComponent(tokenId)}`,
    clientAuthCertificates: (id: string) =>
      `${UI_API_V1}/service-user/${encodeURIComponent(id)}/client-auth-certificate`,
    clientAuthCertificateEnable: (id: string, certId: string) =>
      `${UI_API_V1}/service-user/${encodeURIComponent(id)}/client-auth-certificate/${encodeURIComponent(certId)}/enable`,
  },
  /**
   * Certificate enrollment (overview §4 and §7, decision 021): created by an administrator for a seat
   * (a person or a device of an account) and a profile; the enrollee's calls carry the enrollment's
   * id and its mailed code, on the v2 base path the spec gives enrollment, status, resend and seats.
   */
  enrollments: {
    list: `${UI_API_V1}/enrollments`,
    create: `${UI_API_V2}/enrollment`,
    byId: (id: string) => `${UI_API_V2}/enrollment/${encodeURIComponent(id)}`,
    status: (id: string) => `${UI_API_V2}/enrollment/${encodeURIComponent(id)}/status`,
    resend: (id: string) => `${UI_API_V2}/enrollment/${encodeURIComponent(id)}/resend`,
    /**
     * an administrator asks for a client-authentication certificate for the enrollment's person,
     * who makes it through the link (decision 033).
     */
    clientAuthCertificate: (id: string) =>
      `${UI_API_V1}/enrollment/${encodeURIComponent(id)}/client-auth-certificate`,
    /** Public: the enrollment as its code opens it (overview §4, step 1). */
    byCode: (id: string, code: string) =>
      `${UI_API_V2}/enrollment/${encodeURIComponent(id)}/${encodeURIComponent(code)}`,
    /**
     * Public: POST is the certificate request (overview §3), answered with `x509_cert` (and the same
     * chain as `pkcs7` for the desktop client); GET answers the certificate of an issued or redeemed
     * enrollment again, to install it later.
     */
    certificate: (id: string, code: string) =>
      `${UI_API_V2}/enrollment/${encodeURIComponent(id)}/${encodeURIComponent(code)}/certificate`,
    /**
     * Public: GET what client certificate was asked for the enrollee; POST its CSR, made where the
     * enrollee is, for the certificate (decision 033).
     */
    publicClientAuthCertificate: (id: string, code: string) =>
      `${UI_API_V2}/enrollment/${encodeURIComponent(id)}/${encodeURIComponent(code)}/client-auth-certificate`,
    /** Public: PUT without body once the certificate sits in the keystore. */
    redeem: (id: string, code: string) =>
      `${UI_API_V2}/enrollment/${encodeURIComponent(id)}/${encodeURIComponent(code)}/redeem`,
    seat: (id: string) => `${UI_API_V2}/seat/${encodeURIComponent(id)}`,
    seatEnrollments: (id: string) => `${UI_API_V2}/seat/${encodeURIComponent(id)}/enrollments`,
  },
  /** The platform's CAs; their certificates and CRLs are public (decision 019). */
  certificateAuthority: {
    list: `${CA_API_V1}/ca`,
    byId: (id: string) => `${CA_API_V1}/ca/${encodeURIComponent(id)}`,
    /** Public: the CA's certificate, DER (`.crt`) or PEM (`.pem`). */
    certificate: (id: string, extension: 'crt' | 'pem') =>
      `${CA_API_V1}/ca/${encodeURIComponent(id)}/certificate.${extension}`,
    /** Public: the CA's CRL, DER; the address every certificate it issues names. */
    crl: (id: string) => `${CA_API_V1}/crl/${encodeURIComponent(id)}.crl`,
  },
  /**
   * The client-tools catalogue (overview §2, §3): public, since the public enrollment page's install
   * prompt links to it; each file downloads from `{id}/{folder}/{name}`.
   */
  clientTools: {
    list: `${CA_API_V1}/client-tools`,
    file: (id: string, folder: string, name: string) =>
      `${CA_API_V1}/client-tools/${encodeURIComponent(id)}/${encodeURIComponent(folder)}/${encodeURIComponent(name)}`,
  },
  /**
   * Certificates the platform CA issued, on the certificate authority's base path (overview §7,
   * reference data `certificate` and `certificate/export`).
   */
  certificates: {
    list: `${CA_API_V1}/certificate`,
    byId: (id: string) => `${CA_API_V1}/certificate/${encodeURIComponent(id)}`,
    revoke: (id: string) => `${CA_API_V1}/certificate/${encodeURIComponent(id)}/revoke`,
    /** One certificate as pem, der or p7b (with its chain), or the filtered list as csv. */
    export: `${CA_API_V1}/certificate/export`,
  },
  /**
   * Certificate profiles (templates of cert_type end_entity) and the enrollment reference data, on
   * the certificate authority's base path; an account's own on the console API (account §7).
   */
  certificateProfiles: {
    profiles: `${CA_API_V1}/profile`,
    byId: (id: string) => `${CA_API_V1}/profile/${encodeURIComponent(id)}`,
    templates: `${CA_API_V1}/template`,
    accountTemplates: (accountId: string) => `${UI_API_V1}/account/${encodeURIComponent(accountId)}/template`,
    accountProfiles: (accountId: string) => `${UI_API_V1}/account/${encodeURIComponent(accountId)}/profile`,
    enrollmentMethods: `${CA_API_V1}/enrollment-method`,
    keystoreTypes: `${CA_API_V1}/keystore-type`,
    nationalities: `${CA_API_V1}/nationalities`,
  },
  roles: {
    list: `${UI_API_V1}/role`,
    unique: `${UI_API_V1}/role/unique`,
    export: `${UI_API_V1}/role/export`,
    byId: (id: string) => `${UI_API_V1}/role/${encodeURIComponent(id)}`,
    users: (id: string) => `${UI_API_V1}/role/${encodeURIComponent(id)}/users`,
  },
  permissionGroups: `${UI_API_V1}/permissiongroup`,
  profile: `${UI_API_V1}/profile`,
  userApplications: `${UI_API_V1}/user/applications`,
  permissions: `${UI_API_V1}/permission`,
  userLocale: (userId: string, locale: string) =>
    `${UI_API_V1}/user/${encodeURIComponent(userId)}/locale/${encodeURIComponent(locale)}`,
  locales: `${ACCOUNT_API_V1}/locales`,
  /** The public API's OpenAPI document (decision 034). */
  openApi: `${ACCOUNT_API_V1}/openapi.json`,
  /** The console API's own OpenAPI document: internal, apart from the public one (decision 034). */
  consoleOpenApi: `${UI_API_V1}/openapi.json`,
  /** The reference page of both documents; its renderer's files are served under it. */
  apiReference: `${ACCOUNT_API_V1}/docs`,
} as const;

const CA_PUBLICATION_PATH = new RegExp(
  `^${CA_API_V1.replaceAll('/', '\\/')}\\/(crl\\/[^/]+\\.crl|ca\\/[^/]+\\/certificate\\.(crt|pem))$`,
);

/**
 * Whether a request path is one of the public addresses of CA certificates and CRLs: their answers
 * may be cached (each route sets how long), unlike every other API answer.
 */
export function isCaPublicationPath(path: string): boolean {
  return CA_PUBLICATION_PATH.test(path);
}

const CLIENT_TOOL_DOWNLOAD_PATH = new RegExp(
  `^${CA_API_V1.replaceAll('/', '\\/')}\\/client-tools\\/[^/]+\\/[^/]+\\/[^/]+$`,
);

/** Whether a request path is a client-tool download: its answers may be cached too. */
export function isClientToolDownloadPath(path: string): boolean {
  return CLIENT_TOOL_DOWNLOAD_PATH.test(path);
}
