import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as foundation from './migrations/20251121T1100-foundation.ts';
import * as accountsOrganizations from './migrations/20261121T0900-accounts-organizations.ts';
import * as idempotencyStorageSecrets from './migrations/20261205T0900-idempotency-storage-secrets.ts';
import * as trustedDevices from './migrations/20261210T0900-trusted-devices.ts';
import * as mailOutbox from './migrations/20261212T0900-mail-outbox.ts';
import * as usersRead from './migrations/20261212T1000-users-read.ts';
import * as apiTokens from './migrations/20261213T0900-api-tokens.ts';
import * as rolesManagement from './migrations/20261213T1000-roles-management.ts';
import * as bulkUserImport from './migrations/20261213T1100-bulk-user-import.ts';
import * as serviceUsers from './migrations/20261213T1200-service-users.ts';
import * as certificateAuthority from './migrations/20261214T0900-certificate-authority.ts';
import * as certificateReferenceData from './migrations/20261214T1000-certificate-reference-data.ts';
import * as clientAuthSetupMail from './migrations/20261214T1130-client-auth-setup-mail.ts';
import * as enrollments from './migrations/20261220T0900-enrollments.ts';
import * as licences from './migrations/20261225T0900-licences.ts';
import * as accountFeatures from './migrations/20261225T1000-account-features.ts';
import * as auditCheckpoints from './migrations/20261226T0900-audit-checkpoints.ts';
import * as auditEventContent from './migrations/20261227T0900-audit-event-content.ts';
import * as accountNameSearch from './migrations/20261229T0900-account-name-search.ts';
import * as principalChangeNotifications from './migrations/20261229T1000-principal-change-notifications.ts';
import * as enrollmentClientAuth from './migrations/20261230T0900-enrollment-client-auth.ts';
import * as enrollmentClientAuthMail from './migrations/20261231T0900-enrollment-client-auth-mail.ts';
import * as refreshTokenReuseInterval from './migrations/20270101T0900-refresh-token-reuse-interval.ts';
import * as keystoreTypesTheAgentReports from './migrations/20270101T1000-keystore-types-the-agent-reports.ts';
import * as accountAdministratorSeesItsLicences from './migrations/20270101T1100-account-administrator-sees-its-licences.ts';
import type { Database } from './schema.ts';

/**
 * Every migration, by name. Imported statically (not read from the directory) so the list is
 * checked by the compiler and works the same under tsx, vitest and a bundle. Names sort by time.
 */
const MIGRATIONS: Record<string, Migration> = {
  '20251121T1100-foundation': foundation,
  '20261121T0900-accounts-organizations': accountsOrganizations,
  '20261205T0900-idempotency-storage-secrets': idempotencyStorageSecrets,
  '20261210T0900-trusted-devices': trustedDevices,
  '20261212T0900-mail-outbox': mailOutbox,
  '20261212T1000-users-read': usersRead,
  '20261213T0900-api-tokens': apiTokens,
  '20261213T1000-roles-management': rolesManagement,
  '20261213T1100-bulk-user-import': bulkUserImport,
  '20261213T1200-service-users': serviceUsers,
  '20261214T0900-certificate-authority': certificateAuthority,
  '20261214T1000-certificate-reference-data': certificateReferenceData,
  '20261214T1130-client-auth-setup-mail': clientAuthSetupMail,
  '20261220T0900-enrollments': enrollments,
  '20261225T0900-licences': licences,
  '20261225T1000-account-features': accountFeatures,
  '20261226T0900-audit-checkpoints': auditCheckpoints,
  '20261227T0900-audit-event-content': auditEventContent,
  '20261229T0900-account-name-search': accountNameSearch,
  '20261229T1000-principal-change-notifications': principalChangeNotifications,
  '20261230T0900-enrollment-client-auth': enrollmentClientAuth,
  '20261231T0900-enrollment-client-auth-mail': enrollmentClientAuthMail,
  '20270101T0900-refresh-token-reuse-interval': refreshTokenReuseInterval,
  '20270101T1000-keystore-types-the-agent-reports': keystoreTypesTheAgentReports,
  '20270101T1100-account-administrator-sees-its-licences': accountAdministratorSeesItsLicences,
};

const staticProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

/** Applies every pending migration; concurrent starters wait on Kysely's migration lock. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // Named explicitly: Kysely otherwise looks for its bookkeeping tables in every schema, and finds
  // another schema's when several share one PostgreSQL database (as test runs do).
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrationTableSchema = rows[0]?.schema;
  const migrator = new Migrator({
    db,
    provider: staticProvider,
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const name = failed ? ` "${failed.migrationName}"` : '';
    throw new Error(`Database migration${name} failed.`, { cause: error });
  }
}
