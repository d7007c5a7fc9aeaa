import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { inject } from 'vitest';
import { DEFAULT_PLATFORM_LOCALE } from '../../contract/locales.ts';
import type { AccessScope, ApplicationCode, BuiltInRoleCode } from '../../contract/permissions.ts';
import type { LicencePayload } from '../../contract/schemas/licence.ts';
import { createApp } from '../../server/app.ts';
import type { AppDeps } from '../../server/app-deps.ts';
import { DEFAULT_CA_KEY_ENCRYPTION_KEY_FILE, loadConfig, type ServerConfig } from '../../server/config.ts';
import { utcDate } from '../../server/dates.ts';
import { type OpenDatabase, openDatabase } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrator.ts';
import { ensureSystemAccount } from '../../server/db/system-account.ts';
import type { AppEnv } from '../../server/http/app-env.ts';
import { hashPassword } from '../../server/identity/passwords.ts';
import { keyFingerprint } from '../../server/licence/format.ts';
import { issueLicence } from '../../server/licence/issue.ts';
import { insertLicence } from '../../server/licence/store.ts';
import { VENDOR_PUBLIC_KEY_FILE } from '../../server/licence/vendor-keys.ts';
import { verifyLicence } from '../../server/licence/verify.ts';
import { insertUser } from '../../server/users/repository.ts';
import { ensureBuiltInRoles } from '../../server/users/roles.ts';
import {
  createDatabase,
  databaseName,
  databaseUrl,
  dropDatabase,
  migratedDatabase,
} from './migrated-database.ts';

export interface TestUserOptions {
  userName?: string;
  password?: string;
  accessScope?: AccessScope;
  /** Built-in roles to grant; defaults to the administrator role of the scope. */
  roles?: readonly BuiltInRoleCode[];
  /** Primary account of a partner- or account-scope user; a new account when absent. */
  accountId?: string;
}

export interface TestUser {
  id: string;
  userName: string;
  password: string;
  accountId: string;
}

export interface TestApp {
  app: Hono<AppEnv>;
  deps: AppDeps;
  /** A data directory of its own, holding the trusted vendor public key. */
  dataDir: string;
  /** The private key of the trusted test vendor. */
  vendorKey: KeyObject;
  /** A licence text signed by the trusted test vendor; valid for a year from today unless overridden. */
  signLicence: (overrides?: Partial<LicencePayload>) => Promise<string>;
  /** Stores a valid licence directly, as setup would. */
  installLicence: (overrides?: Partial<LicencePayload>) => Promise<void>;
  createAccount: (name?: string) => Promise<string>;
  createUser: (options?: TestUserOptions) => Promise<TestUser>;
  close: () => Promise<void>;
}

const DEFAULT_ROLE: Record<AccessScope, BuiltInRoleCode> = {
  system: 'system_administrator',
  partner: 'partner_administrator',
  account: 'account_administrator',
};

function addDays(date: string, days: number): string {
  return utcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
}

/**
 * A fresh, migrated database per call: in-memory PGlite opened from the run's migrated database, or
 * on the PostgreSQL server TEST_DATABASE_URL names a database copied from the run's migrated
 * template (tests/server/migrated-database.ts), dropped again on close.
 */
export async function openTestDatabase(): Promise<OpenDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    return openDatabase({ inMemory: true, from: await migratedDatabase(inject('migratedDatabaseFile')) });
  const name = databaseName('test');
  await createDatabase(url, name, inject('postgresTemplate'));
  const opened = await openDatabase({ databaseUrl: databaseUrl(url, name) });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await dropDatabase(url, name);
    },
  };
}

export async function createTestApp(
  options: { now?: () => Date; config?: Partial<ServerConfig> } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'trust-console-test-'));
  const { privateKey: vendorKey, publicKey } = generateKeyPairSync('ed25519');
  await writeFile(
    path.join(dataDir, VENDOR_PUBLIC_KEY_FILE),
    publicKey.export({ type: 'spki', format: 'pem' }),
  );

  const database = await openTestDatabase();
  await migrateToLatest(database.db);
  const config: ServerConfig = {
    ...loadConfig({}),
    dataDir,
    consoleDistDir: path.join(dataDir, 'console'),
    // The CA's keys sealed under a key file of this app's own (tests/server/ca/helpers.ts creates
    // the CAs); P-256 keeps their creation quick.
    caCustody: {
      kind: 'encrypted',
      keyFile: path.join(dataDir, DEFAULT_CA_KEY_ENCRYPTION_KEY_FILE),
      generated: true,
    },
    caKeyAlgorithm: 'ECDSA-P256',
    ...options.config,
  };
  // Suites that need delivery drive a dispatcher of their own (tests/server/mail/helpers.ts).
  const deps: AppDeps = {
    db: database.db,
    config,
    now: options.now ?? (() => new Date()),
    mail: { nudge: () => undefined },
  };
  const app = createApp(deps);

  const signLicence = async (overrides: Partial<LicencePayload> = {}): Promise<string> => {
    const today = utcDate(deps.now());
    return issueLicence(
      {
        licence_id: randomUUID(),
        licensee: 'Test Licensee',
        valid_from: today,
        valid_to: addDays(today, 365),
        seats: { account_manager: -1, ca_manager: 100 } satisfies Partial<Record<ApplicationCode, number>>,
        issued_at: deps.now().toISOString(),
        ...overrides,
      },
      vendorKey,
    );
  };

  const installLicence = async (overrides: Partial<LicencePayload> = {}): Promise<void> => {
    const text = await signLicence(overrides);
    const verification = await verifyLicence(
      text,
      new Map([[keyFingerprint(publicKey), publicKey]]),
      deps.now(),
    );
    if (!verification.ok) throw new Error(`Test licence does not verify: ${verification.failure.reason}.`);
    const { payload, fingerprint } = verification;
    await insertLicence(deps.db, {
      text,
      payload,
      fingerprint,
      installedAt: deps.now(),
      installedBy: null,
    });
  };

  const createAccount = async (name = `Account ${randomUUID().slice(0, 8)}`): Promise<string> => {
    const id = randomUUID();
    await deps.db
      .insertInto('accounts')
      .values({
        id,
        name,
        display_name: name,
        friendly_identifier: id,
        type: 'standard',
        partner_account_id: null,
        locale: DEFAULT_PLATFORM_LOCALE,
        service_from: utcDate(deps.now()),
        service_to: null,
        created_at: deps.now(),
        updated_at: deps.now(),
      })
      .execute();
    return id;
  };

  const createUser = async (user: TestUserOptions = {}): Promise<TestUser> => {
    const accessScope = user.accessScope ?? 'system';
    const userName = user.userName ?? `user-${randomUUID().slice(0, 8)}`;
    const password = user.password ?? 'Correct-Horse-42!';
    const now = deps.now();
    const accountId =
      user.accountId ??
      (accessScope === 'system' ? await ensureSystemAccount(deps.db, now) : await createAccount());
    const roleIds = await ensureBuiltInRoles(deps.db, now);
    const id = await insertUser(deps.db, {
      userName,
      firstName: 'Test',
      lastName: 'User',
      email: `${userName}@example.com`,
      accessScope,
      primaryAccountId: accountId,
      passwordHash: await hashPassword(password),
      roleIds: (user.roles ?? [DEFAULT_ROLE[accessScope]]).map((code) => roleIds[code]),
      emailVerified: true,
      now,
    });
    return { id, userName, password, accountId };
  };

  return {
    app,
    deps,
    dataDir,
    vendorKey,
    signLicence,
    installLicence,
    createAccount,
    createUser,
    close: async () => {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
