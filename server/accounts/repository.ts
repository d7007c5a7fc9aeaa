import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { APPLICATIONS } from '../../contract/applications.ts';
import { KEY_LOCKER_APPLICATION_NAME, LICENCE_TYPES } from '../../contract/licences.ts';
import { APPLICATION_CODES, type ApplicationCode } from '../../contract/permissions.ts';
import type { Tenant, TenantFederation, TenantType, TenantUpdate } from '../../contract/schemas/tenants.ts';
import { featureEnabled } from '../account-features/index.ts';
import { mayManageAccount, visibleTo } from '../authorization/account-reach.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';
import { licensedApplications } from '../licence/index.ts';
import { heldApplications } from '../licences/index.ts';
import { deriveFriendlyIdentifier } from './friendly-identifier.ts';
import { accountsWithPartner, selectSummary, toTenantSummary } from './list.ts';

/** How often a derived friendly identifier is drawn again after a collision before giving up. */
const FRIENDLY_IDENTIFIER_ATTEMPTS = 5;

/** An application's name as the account sees it: a key-locker account's Software Trust Manager is KeyLocker. */
function applicationName(code: ApplicationCode, keyLocker: boolean): string {
  return keyLocker && code === 'secure_software_manager'
    ? KEY_LOCKER_APPLICATION_NAME
    : APPLICATIONS[code].name;
}

/**
 * The account's applications (decision 022 §1): those it holds a licence of (a total other than 0
 * of any of its types), with each type's limit, use and remainder, and the account management
 * application, which has no licence types, whenever the platform's licence has it.
 */
function tenantApplications(
  licensed: ReadonlySet<ApplicationCode>,
  held: Awaited<ReturnType<typeof heldApplications>>,
  keyLocker: boolean,
): Tenant['applications'] {
  return APPLICATION_CODES.filter(
    (code) => held.has(code) || (LICENCE_TYPES[code].length === 0 && licensed.has(code)),
  ).map((code) => ({
    id: code,
    name: applicationName(code, keyLocker),
    app_code: code,
    app_name: applicationName(code, keyLocker),
    context: APPLICATIONS[code].context,
    features: held.get(code) ?? [],
    // Per-application permissions of an account are not modelled: every permission is the account
    // management application's (decision 035 §2).
    permissions: [],
  }));
}

/**
 * The whole record of an account the caller sees (GET tenant/{id}), or undefined when it does not
 * see it. Sign-in methods, authentication configurations and OAuth clients are what the platform
 * has today: standard sign-in only, so no configurations and no clients.
 */
export async function findTenant(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  now: Date,
): Promise<Tenant | undefined> {
  const [row, licensed, keyLocker] = await Promise.all([
    selectSummary(accountsWithPartner(db, principal, id))
      .select([
        'a.federated_account_name',
        'a.federation_provider',
        'a.mfa_enabled',
        'a.allow_user_creation_via_sso',
      ])
      .executeTakeFirst(),
    licensedApplications(db, now),
    featureEnabled(db, id, 'key_locker_account'),
  ]);
  if (!row) return undefined;
  const held = await heldApplications(db, row, now);
  const linked = row.federation_status === 'linked';
  return {
    ...toTenantSummary(row),
    federated_account_name: row.federated_account_name,
    federation_provider: row.federation_provider,
    has_onelogin_id: linked,
    can_account_be_unlinked: linked,
    mfa_enabled: row.mfa_enabled,
    can_edit_mfa: principal.permissions.has('MANAGE_ACCOUNT') && mayManageAccount(principal, row),
    allow_user_creation_via_sso: row.allow_user_creation_via_sso,
    has_dsm_license: held.has('document_signing_manager'),
    applications: tenantApplications(licensed, held, keyLocker),
  };
}

/**
 * Accounts among `ids` that the caller sees; with `lock`, locked for the rest of the transaction so
 * the checks made on them still hold when the change is written. Ids the caller does not see are
 * left out.
 */
export function visibleAccounts(
  trx: Kysely<Database>,
  principal: Principal,
  ids: readonly string[],
  lock: boolean,
) {
  return trx
    .selectFrom('accounts')
    .select([
      'id',
      'name',
      'friendly_identifier',
      'type',
      'active',
      'locale',
      'partner_account_id',
      'system_account',
      'service_from',
      'service_to',
      'federation_status',
      'federation_provider',
      'federated_account_id',
      'federated_account_name',
      'federated_account_details_url',
      'version',
    ])
    .where('id', 'in', ids)
    .where(visibleTo(principal))
    .orderBy('id')
    .$if(lock, (query) => query.forUpdate())
    .execute();
}

export type AccountRow = Awaited<ReturnType<typeof visibleAccounts>>[number];

/** The account with `id` if the caller sees it, locked with `lock` as `visibleAccounts` locks. */
export async function visibleAccount(
  trx: Kysely<Database>,
  principal: Principal,
  id: string,
  lock: boolean,
): Promise<AccountRow | undefined> {
  const [account] = await visibleAccounts(trx, principal, [id], lock);
  return account;
}

export interface AccountToCreate {
  name: string;
  locale: string;
  type: Exclude<TenantType, 'system'>;
  partnerAccountId: string | null;
  /** As the caller chose it; derived from the name when null. */
  friendlyIdentifier: string | null;
  serviceFrom: string;
  serviceTo: string;
  now: Date;
}

/**
 * Inserts an account and answers its id and friendly identifier, or null when the chosen friendly
 * identifier is taken. `on conflict do nothing` rather than a check first: two requests racing for
 * one identifier cannot both pass, and the transaction stays usable for a second draw.
 */
export async function insertAccount(
  trx: Kysely<Database>,
  account: AccountToCreate,
): Promise<{ id: string; friendlyIdentifier: string } | null> {
  const attempts = account.friendlyIdentifier === null ? FRIENDLY_IDENTIFIER_ATTEMPTS : 1;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const friendlyIdentifier = account.friendlyIdentifier ?? deriveFriendlyIdentifier(account.name);
    const inserted = await trx
      .insertInto('accounts')
      .values({
        id: randomUUID(),
        name: account.name,
        display_name: account.name,
        friendly_identifier: friendlyIdentifier,
        type: account.type,
        partner_account_id: account.partnerAccountId,
        locale: account.locale,
        service_from: account.serviceFrom,
        service_to: account.serviceTo,
        created_at: account.now,
        updated_at: account.now,
      })
      .onConflict((conflict) => conflict.column('friendly_identifier').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, friendlyIdentifier };
  }
  if (account.friendlyIdentifier === null) {
    throw new Error(`No free friendly identifier after ${FRIENDLY_IDENTIFIER_ATTEMPTS} draws.`);
  }
  return null;
}

/** Name, language and service period; `display_name` follows the name. Bumps the version. */
export async function updateAccount(
  trx: Kysely<Database>,
  id: string,
  update: TenantUpdate,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({
      name: update.name,
      display_name: update.name,
      locale: update.locale,
      service_from: update.service_period.from,
      service_to: update.service_period.to,
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
}

/** Links the account to an account of an external identity product, or unlinks it (`null`). */
export async function setFederation(
  trx: Kysely<Database>,
  id: string,
  link: TenantFederation | null,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({
      federation_status: link === null ? 'unlinked' : 'linked',
      federation_provider: link?.provider ?? null,
      federated_account_id: link?.federated_account_id ?? null,
      federated_account_name: link?.federated_account_name ?? null,
      federated_account_details_url: link?.details_url ?? null,
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
}

/** Deactivates (`false`) or reactivates (`true`) an account. Bumps the version. */
export async function setActive(
  trx: Kysely<Database>,
  id: string,
  active: boolean,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({ active, updated_at: now, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Whether an active account is under the partner `partnerId`. */
export async function hasActiveAccounts(trx: Kysely<Database>, partnerId: string): Promise<boolean> {
  const child = await trx
    .selectFrom('accounts')
    .select('id')
    .where('partner_account_id', '=', partnerId)
    .where('active', '=', true)
    .limit(1)
    .executeTakeFirst();
  return child !== undefined;
}

/** An active partner account by id, share-locked so it cannot be deleted before the new account commits. */
export function findActivePartner(trx: Kysely<Database>, id: string) {
  return trx
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', id)
    .where('type', '=', 'partner')
    .where('active', '=', true)
    .forShare()
    .executeTakeFirst();
}

/** A partner among `ids` that still has accounts outside `ids` under it, if any. */
export function partnerWithRemainingAccounts(trx: Kysely<Database>, ids: readonly string[]) {
  return trx
    .selectFrom('accounts as child')
    .innerJoin('accounts as partner', 'partner.id', 'child.partner_account_id')
    .select(['partner.id', 'partner.name'])
    .where('child.partner_account_id', 'in', ids)
    .where('child.id', 'not in', ids)
    .limit(1)
    .executeTakeFirst();
}

/**
 * Deletes accounts with their users (sessions, role grants and memberships go with them by cascade),
 * roles and organizations. Accounts under a partner go before the partner, which the foreign key
 * requires. Answers how many users each account had.
 */
export async function deleteAccounts(
  trx: Kysely<Database>,
  accounts: readonly Pick<AccountRow, 'id' | 'type'>[],
): Promise<Map<string, number>> {
  const ids = accounts.map((account) => account.id);
  const deletedUsers = await trx
    .deleteFrom('users')
    .where('primary_account_id', 'in', ids)
    .returning('primary_account_id')
    .execute();
  const usersPerAccount = new Map(ids.map((id) => [id, 0]));
  for (const { primary_account_id } of deletedUsers) {
    usersPerAccount.set(primary_account_id, (usersPerAccount.get(primary_account_id) ?? 0) + 1);
  }
  const partners = accounts.filter((account) => account.type === 'partner').map((account) => account.id);
  const others = ids.filter((id) => !partners.includes(id));
  for (const batch of [others, partners]) {
    if (batch.length > 0) await trx.deleteFrom('accounts').where('id', 'in', batch).execute();
  }
  return usersPerAccount;
}

/** The users whose primary account is one of `accountIds`: they are deleted with those accounts. */
export function usersOfPrimaryAccounts(db: Kysely<Database>, accountIds: readonly string[]) {
  return db.selectFrom('users').select('id').where('primary_account_id', 'in', accountIds).execute();
}
