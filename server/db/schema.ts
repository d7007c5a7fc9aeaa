import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';
import type { ProfilePolicy, RevocationReason } from '../../contract/certificate-policy.ts';
import type { ApplicationCode } from '../../contract/permissions.ts';
import type { EnrollmentMethod } from '../../contract/schemas/certificate-profiles.ts';
import type { EnrollmentStatus } from '../../contract/schemas/enrollments.ts';

/**
 * Tables of the platform database. One interface per table, combined into `Database` (the Kysely
 * example's layout). Timestamps are `timestamptz`, dates are `date` read as `YYYY-MM-DD` strings.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type DateOnly = ColumnType<string, string, string>;
type Json<T> = ColumnType<T, string, string>;

export interface AccountsTable {
  id: string;
  name: string;
  /** `lower(name)`, generated: what the name filters match (migration 20261229T0900). */
  name_lower: GeneratedAlways<string>;
  display_name: string;
  active: Generated<boolean>;
  friendly_identifier: string;
  /** standard | partner | system */
  type: string;
  partner_account_id: string | null;
  system_account: Generated<boolean>;
  locale: string;
  service_from: DateOnly;
  service_to: DateOnly | null;
  /** Name of the external identity product the account is linked to. */
  federation_provider: string | null;
  federated_account_id: string | null;
  federated_account_name: string | null;
  federated_account_details_url: string | null;
  /** linked | unlinked; null for an account that was never federated. */
  federation_status: string | null;
  mfa_enabled: Generated<boolean>;
  allow_user_creation_via_sso: Generated<boolean>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrganizationsTable {
  id: string;
  account_id: string;
  name: string;
  address: string;
  address2: Generated<string>;
  city: string;
  state: Generated<string>;
  zip_code: Generated<string>;
  /** ISO 3166-1 alpha-2. */
  country: string;
  phone: Generated<string>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrganizationContactsTable {
  id: string;
  organization_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: Generated<string>;
  title: Generated<string>;
  /** technical | administrative */
  type: string;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  user_name: string;
  /** Lower-cased user name; unique, so sign-in is case-insensitive. */
  user_name_key: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  locale: string;
  date_format: string | null;
  /** system | partner | account */
  access_scope: string;
  primary_account_id: string;
  /** argon2id PHC string; null for users who cannot sign in with a password. */
  password_hash: string | null;
  saml_username: string | null;
  oidc_username: string | null;
  active: Generated<boolean>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** null: the e-mail address is not verified. */
  email_verified_at: Timestamp | null;
  password_changed_at: Timestamp | null;
  /** Written by POST auth/login in its transaction. */
  last_sign_in_at: Timestamp | null;
  /** Identifier → value (E-26); only system-scope users carry any. */
  aliases: ColumnType<Record<string, string>, string | undefined, string>;
  /** Application code chosen as the user's default (`defaultManager`). */
  default_application: string | null;
  agreement_accepted_at: Timestamp | null;
  agreement_locale: string | null;
  mfa_enrolled_at: Timestamp | null;
  mfa_locked_until: Timestamp | null;
  created_by: string | null;
  /** `person` signs in; `service` authenticates with API tokens only (decision 018 §1). */
  kind: Generated<UserKind>;
}

export type UserKind = 'person' | 'service';

/** What only a service user has; its name, e-mail and enabled state are its `users` row's. */
export interface ServiceUsersTable {
  user_id: string;
  description: Generated<string>;
  /** `YYYY-MM-DD`: the service user works through 23:59:59 UTC of this day; null for no end date. */
  end_date: string | null;
}

export interface UserAccountsTable {
  user_id: string;
  account_id: string;
}

export interface RolesTable {
  id: string;
  /** Built-in role code (system_administrator …) or null for a custom role. */
  code: string | null;
  name: string;
  app_code: string;
  /** null for built-in roles, which every account shares. */
  account_id: string | null;
  permissions: Json<string[]>;
  archived: Generated<boolean>;
  created_at: Timestamp;
  description: Generated<string>;
  /** The role whose form a clone was made from; null once that role is deleted with its account. */
  cloned_from: string | null;
  version: Generated<number>;
  updated_at: Timestamp | null;
  created_by: string | null;
  archived_at: Timestamp | null;
  archived_by: string | null;
}

export interface UserRolesTable {
  user_id: string;
  role_id: string;
}

export interface LicencesTable {
  id: string;
  licence_id: string;
  licensee: string;
  valid_from: DateOnly;
  valid_to: DateOnly;
  seats: Json<Record<string, number>>;
  /** The licence text exactly as installed. Never sent to the console after installation. */
  body: string;
  key_fingerprint: string;
  installed_at: Timestamp;
  installed_by: string | null;
}

/** One row per sign-in session: the refresh-token family. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** why: logout | reuse_detected | admin | expired | account_deactivated */
  revoked_reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

export interface RefreshTokensTable {
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  token_hash: string;
  session_id: string;
  issued_at: Timestamp;
  expires_at: Timestamp;
  /**
   * Set when the token was exchanged; a second exchange is reuse and revokes the session, unless it
   * comes from the same client within the reuse interval (server/identity/sessions.ts).
   */
  used_at: Timestamp | null;
  /** SHA-256 (hex) of the address and user agent that exchanged the token. */
  spent_by: string | null;
  /** The successor, AES-256-GCM-sealed under a key derived from this token, which is never stored. */
  successor_sealed: string | null;
}

/** Failed sign-in counters keyed by `user:<name>`, `ip:<address>` or `pair:<name>|<address>`. */
export interface SignInThrottleTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  blocked_until: Timestamp | null;
}

/** A browser a user has signed in from; see migrations/20261210T0900-trusted-devices.ts. */
export interface TrustedDevicesTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** Keys that sign access tokens; every server process reads the same ones. */
export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  private_jwk: Json<Record<string, unknown>>;
  public_jwk: Json<Record<string, unknown>>;
  created_at: Timestamp;
  retired_at: Timestamp | null;
}

/** Platform settings by key (login customization …). */
export interface SettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: Timestamp;
  version: Generated<number>;
}

/**
 * One event of the hash-chained trail (decision 023). `content` is the canonical JSON its hash covers;
 * every other field of the event is a column the database generates from it, so none can be written
 * on its own or disagree with what the chain proves.
 */
export interface AuditEventsTable {
  seq: Generated<number>;
  content: string;
  prev_hash: string;
  hash: string;
  id: GeneratedAlways<string>;
  occurred_at: GeneratedAlways<Date>;
  action: GeneratedAlways<string>;
  status: GeneratedAlways<string>;
  resource_type: GeneratedAlways<string>;
  resource_id: GeneratedAlways<string | null>;
  account_id: GeneratedAlways<string | null>;
  actor_id: GeneratedAlways<string | null>;
  actor_name: GeneratedAlways<string | null>;
  ip_address: GeneratedAlways<string | null>;
  /** The client's User-Agent; null for events recorded before it was kept and for background work. */
  user_agent: GeneratedAlways<string | null>;
  details: GeneratedAlways<Record<string, unknown>>;
}

/** A public key that signs audit checkpoints (decision 023); its private half stays in a file. */
export interface AuditCheckpointKeysTable {
  key_id: string;
  public_key_pem: string;
  created_at: Timestamp;
}

/** A signed chain head: the platform's Ed25519 signature over (seq, head_hash, signed_at, key_id). */
export interface AuditCheckpointsTable {
  seq: number;
  head_hash: string;
  signed_at: Timestamp;
  key_id: string;
  signature: string;
}

/**
 * A request sent with an Idempotency-Key, per caller (`user:<id>` or `anonymous`) and key: in
 * progress while `response_status` is null, then the response that answers every replay.
 */
export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  /** SHA-256 (hex) of the method, the path with its query and the body bytes. */
  fingerprint: string;
  created_at: Timestamp;
  response_status: number | null;
  /** Content-Type, ETag and Location of the stored response, by name. */
  response_headers: Json<Record<string, string>> | null;
  response_body: Uint8Array | null;
  completed_at: Timestamp | null;
}

/** The key-wrapping secret of a user's offline data in the console; 32 random bytes. */
export interface UserStorageSecretsTable {
  user_id: string;
  secret: Uint8Array;
  created_at: Generated<Date>;
}

/** A message to send; see migrations/20261212T0900-mail-outbox.ts. No link or secret is stored. */
export interface MailOutboxTable {
  id: string;
  /** A `MailKind` (server/mail/kinds.ts). */
  kind: string;
  /** The user the message is about; null for an enrollment mail to a device's technician. */
  user_id: string | null;
  /** The enrollment an `enrollment` mail is about. */
  enrollment_id: string | null;
  /** The enrollment link, kept only until the message is sent or given up (decision 021 §2). */
  link: string | null;
  to_address: string;
  /** Who asked for the mail; null when nobody signed in did, or that user is gone. */
  requested_by: string | null;
  created_at: Timestamp;
  next_attempt_at: Timestamp;
  attempts: Generated<number>;
  claimed_until: Timestamp | null;
  sent_at: Timestamp | null;
  failed_at: Timestamp | null;
  last_error: string | null;
}

/** A one-time link's code, by its SHA-256 (hex); the code itself is only in the message sent. */
export interface UserTokensTable {
  token_hash: string;
  user_id: string;
  /** invitation | verify_email | reset_password */
  purpose: string;
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** An API token, by its SHA-256 (hex); the token itself is only in its creation answer. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  /** The token's last four characters, for lists. */
  hint: string;
  /** The token works through 23:59:59 UTC of this day; null for no end date. */
  end_date: DateOnly | null;
  created_at: Timestamp;
  created_by: string | null;
  /** Written at most once a minute per token. */
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
  version: Generated<number>;
}

/** A bulk user-creation job; see migrations/20261213T1100-bulk-user-import.ts. */
export interface BulkImportJobsTable {
  id: string;
  created_by: string;
  account_id: string;
  role_ids: Json<string[]>;
  send_invitations: Generated<boolean>;
  file_name: string;
  file_sha256: string;
  /** A `BulkJobState`. */
  state: string;
  total_rows: number;
  valid_rows: number;
  processed: Generated<number>;
  created_count: Generated<number>;
  failed_count: Generated<number>;
  cancelled_count: Generated<number>;
  requested_from: string | null;
  locale: string;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  claimed_until: Timestamp | null;
  expires_at: Timestamp | null;
}

/** One row of a bulk job's file, with its status and reasons (`[{column, code}]`). */
export interface BulkImportRowsTable {
  job_id: string;
  row_number: number;
  line: number;
  cells: Json<Record<string, string>>;
  /** A `BulkRowStatus`. */
  status: string;
  errors: Json<{ column: string; code: string; first_row?: number }[]>;
  user_id: string | null;
  attempts: Generated<number>;
  processed_at: Timestamp | null;
}

/** The platform's CAs (decision 019): one working root and one working issuing CA. */
export interface CertificateAuthoritiesTable {
  id: string;
  kind: 'root' | 'issuing';
  parent_id: string | null;
  key_algorithm: string;
  key_custody: 'encrypted' | 'pkcs11';
  /** The PKCS#8 private key sealed under the operator's key; null when a token holds it. */
  sealed_private_key: Uint8Array | null;
  /** The key's label on the PKCS#11 token; null when the key is sealed here. */
  key_label: string | null;
  /** DER. */
  certificate: Uint8Array;
  subject: string;
  serial_number: string;
  not_before: Timestamp;
  not_after: Timestamp;
  sha256_fingerprint: string;
  crl_number: Generated<number>;
  /** DER of the CRL signed last. */
  crl: Uint8Array | null;
  crl_this_update: Timestamp | null;
  crl_next_update: Timestamp | null;
  created_at: Timestamp;
  retired_at: Timestamp | null;
}

/** An account's certificate profiles (templates of cert_type end_entity). */
export interface CertificateProfilesTable {
  id: string;
  account_id: string;
  name: string;
  description: Generated<string>;
  cert_type: Generated<'end_entity'>;
  /** contract/certificate-policy.ts ProfilePolicy. */
  policy: Json<ProfilePolicy>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  version: Generated<number>;
}

/** Enrollment methods (overview §9: DTA, DDC), seeded by the reference-data migration. */
export interface EnrollmentMethodsTable {
  code: string;
  name: string;
  position: number;
}

/** Keystore types (overview §3), seeded by the reference-data migration. */
export interface KeystoreTypesTable {
  code: string;
  name: string;
  category: 'Platform' | 'HWToken' | 'SWToken';
  source: 'OSKS' | 'DTM_SOFTWARE' | 'HWTK';
  location: 'hardware_token' | 'DTM_SOFTWARE' | null;
  position: number;
}

/** Every certificate the platform CA issued; kept after its account, profile or owner is gone. */
export interface CertificatesTable {
  id: string;
  /** Lower-case hexadecimal without separators. */
  serial_number: string;
  issuer_id: string;
  account_id: string | null;
  profile_id: string | null;
  profile_name: string | null;
  source: 'client_auth' | 'enrollment' | 'profile';
  /** RFC 4514 distinguished name. */
  subject: string;
  common_name: string;
  /** e.g. "RSA 2048", "EC P-256". */
  key_algorithm: string;
  not_before: Timestamp;
  not_after: Timestamp;
  /** DER. */
  certificate: Uint8Array;
  sha256_fingerprint: string;
  owner_user_id: string | null;
  issued_by: string | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  revocation_reason: RevocationReason | null;
  revoked_by: string | null;
  version: Generated<number>;
}

/** What holds a certificate in an account: a person of the account or a device (decision 021 §1). */
export interface SeatsTable {
  id: string;
  account_id: string;
  kind: 'user' | 'device';
  user_id: string | null;
  name: string;
  email: string;
  created_at: Timestamp;
}

/** An enrollment of a seat under a profile (decision 021). */
export interface EnrollmentsTable {
  id: string;
  account_id: string;
  seat_id: string;
  profile_id: string | null;
  profile_name: string;
  /** `expired` is never stored: it is a pending enrollment past `code_expires_at`. */
  status: Exclude<EnrollmentStatus, 'expired'>;
  /** SHA-256 (hex) of the mailed code. */
  code_hash: string;
  code_expires_at: Timestamp;
  failed_attempts: Generated<number>;
  enrollment_method: EnrollmentMethod | null;
  keystore_type: string | null;
  certificate_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  issued_at: Timestamp | null;
  redeemed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  /** When an administrator asked for a client-authentication certificate for the person (decision 033). */
  client_auth_requested_at: Timestamp | null;
  client_auth_requested_by: string | null;
  /** The client-authentication certificate the enrollee made through the link. */
  client_auth_certificate_id: string | null;
  version: Generated<number>;
}

/** A user's client-authentication certificates: issued by the platform CA or uploaded. */
export interface ClientAuthCertificatesTable {
  id: string;
  user_id: string;
  source: 'issued' | 'uploaded';
  certificate_id: string | null;
  /** DER. */
  certificate: Uint8Array;
  common_name: string;
  not_after: Timestamp;
  sha256_fingerprint: string;
  enabled: Generated<boolean>;
  created_at: Timestamp;
  created_by: string | null;
  version: Generated<number>;
}

/** The version the features of an account change under (decision 022 §4); absent reads as 1. */
export interface AccountFeatureVersionsTable {
  account_id: string;
  version: Generated<number>;
}

/** A feature of an account set other than by default; an absent one has its catalogue default. */
export interface AccountFeaturesTable {
  account_id: string;
  feature_id: string;
  enabled: boolean;
  end_date: DateOnly | null;
  updated_at: Timestamp;
}

/** What an account was allocated of one licence type (decision 022 §1). */
export interface LicenceAllocationsTable {
  account_id: string;
  app_code: ApplicationCode;
  feature: string;
  /** -1: unlimited. */
  total_allocated: Generated<number>;
  /** The use its application reported; metered types are counted by the platform instead. */
  used: Generated<number>;
}

/** The version of an account's allocations of one application, which a change names in If-Match. */
export interface AccountLicencesTable {
  account_id: string;
  app_code: ApplicationCode;
  version: Generated<number>;
}

/** One changed licence type of one account (J-42). */
export interface LicenceHistoryTable {
  id: string;
  account_id: string;
  app_code: ApplicationCode;
  feature: string;
  /** The signed change. */
  quantity: number;
  /** The total allocated the change made. */
  new_limit: number;
  actor_id: string | null;
  actor_name: string;
  at: Timestamp;
}

export interface Database {
  accounts: AccountsTable;
  organizations: OrganizationsTable;
  organization_contacts: OrganizationContactsTable;
  users: UsersTable;
  service_users: ServiceUsersTable;
  user_accounts: UserAccountsTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  licences: LicencesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  sign_in_throttle: SignInThrottleTable;
  trusted_devices: TrustedDevicesTable;
  signing_keys: SigningKeysTable;
  settings: SettingsTable;
  audit_events: AuditEventsTable;
  audit_checkpoint_keys: AuditCheckpointKeysTable;
  audit_checkpoints: AuditCheckpointsTable;
  idempotency_keys: IdempotencyKeysTable;
  user_storage_secrets: UserStorageSecretsTable;
  mail_outbox: MailOutboxTable;
  user_tokens: UserTokensTable;
  api_tokens: ApiTokensTable;
  bulk_import_jobs: BulkImportJobsTable;
  bulk_import_rows: BulkImportRowsTable;
  certificate_authorities: CertificateAuthoritiesTable;
  certificate_profiles: CertificateProfilesTable;
  certificates: CertificatesTable;
  client_auth_certificates: ClientAuthCertificatesTable;
  enrollment_methods: EnrollmentMethodsTable;
  keystore_types: KeystoreTypesTable;
  seats: SeatsTable;
  enrollments: EnrollmentsTable;
  account_feature_versions: AccountFeatureVersionsTable;
  account_features: AccountFeaturesTable;
  licence_allocations: LicenceAllocationsTable;
  account_licences: AccountLicencesTable;
  licence_history: LicenceHistoryTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type Licence = Selectable<LicencesTable>;
