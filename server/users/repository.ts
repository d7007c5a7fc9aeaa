import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { APPLICATIONS } from '../../contract/applications.ts';
import { DEFAULT_PLATFORM_LOCALE } from '../../contract/locales.ts';
import {
  type AccessScope,
  APPLICATION_CODES,
  type ApplicationCode,
  isPermissionName,
} from '../../contract/permissions.ts';
import type { Application } from '../../contract/schemas/profile.ts';
import { USER_STATUSES, type User } from '../../contract/schemas/users.ts';
import { visibleTo } from '../authorization/account-reach.ts';
import { effectivePermissions } from '../authorization/grants.ts';
import type { Database, UserKind } from '../db/schema.ts';
import { oneOf } from '../db/stored-values.ts';
import type { Principal } from '../identity/principal.ts';
import { accessScopeOf } from '../identity/sessions.ts';
import { licensedApplications } from '../licence/index.ts';
import { statusOf } from './list.ts';

export interface UserToCreate {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  accessScope: AccessScope;
  primaryAccountId: string;
  /** argon2id PHC string from `hashPassword`, or null for a user without a password. */
  passwordHash: string | null;
  roleIds: readonly string[];
  locale?: string;
  /**
   * Whether the e-mail address counts as verified from the start: true when the creator chose the
   * password (setup, account creation), false for an invited user who verifies by the link.
   */
  emailVerified: boolean;
  /** Normalised phone number, or null. */
  phone?: string | null;
  /** Identifier → value; only a system-scope user carries any. */
  aliases?: Readonly<Record<string, string>>;
  /** Who created the user; null for setup and the platform. */
  createdBy?: string | null;
  /** Accounts the user belongs to beyond its primary one. */
  accountIds?: readonly string[];
  /** `person` (the default) or `service`, which never signs in (decision 018 §1). */
  kind?: UserKind;
  now: Date;
}

/** Inserts a user, its membership of its primary account and its roles; answers the new id. */
export async function insertUser(db: Kysely<Database>, user: UserToCreate): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      kind: user.kind ?? 'person',
      user_name: user.userName,
      user_name_key: user.userName.toLowerCase(),
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      phone: user.phone ?? null,
      aliases: JSON.stringify(user.aliases ?? {}),
      created_by: user.createdBy ?? null,
      locale: user.locale ?? DEFAULT_PLATFORM_LOCALE,
      date_format: null,
      access_scope: user.accessScope,
      primary_account_id: user.primaryAccountId,
      password_hash: user.passwordHash,
      saml_username: null,
      oidc_username: null,
      created_at: user.now,
      updated_at: user.now,
      email_verified_at: user.emailVerified ? user.now : null,
    })
    .execute();
  const accountIds = new Set([user.primaryAccountId, ...(user.accountIds ?? [])]);
  await db
    .insertInto('user_accounts')
    .values([...accountIds].map((accountId) => ({ user_id: id, account_id: accountId })))
    .execute();
  if (user.roleIds.length > 0) {
    await db
      .insertInto('user_roles')
      .values(user.roleIds.map((roleId) => ({ user_id: id, role_id: roleId })))
      .execute();
  }
  return id;
}

/** Whether a user of that name exists; names compare without case, as sign-in does. */
export async function userNameTaken(trx: Kysely<Database>, userName: string): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('id')
    .where('user_name_key', '=', userName.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** An application as the profile and the user record list it. */
export function applicationOf(appCode: ApplicationCode): Application {
  const { name, context } = APPLICATIONS[appCode];
  return { id: appCode, app_code: appCode, app_name: name, context };
}

export interface ApplicationRoles {
  appCode: ApplicationCode;
  roles: { id: string; name: string; code: string | null }[];
}

/**
 * The licensed applications in which the user holds a role, with those roles, in the order of
 * APPLICATION_CODES. Built-in roles count everywhere; a custom role only within `accountId` when
 * one is given. The own profile and a user's applications (GET user/{id}/applications) read it.
 */
export async function applicationRoles(
  db: Kysely<Database>,
  userId: string,
  licensed: ReadonlySet<ApplicationCode>,
  accountId?: string,
): Promise<ApplicationRoles[]> {
  if (licensed.size === 0) return [];
  let query = db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.id', 'roles.app_code', 'roles.name', 'roles.code'])
    .where('user_roles.user_id', '=', userId)
    .where('roles.archived', '=', false)
    .where('roles.app_code', 'in', [...licensed]);
  if (accountId !== undefined) {
    query = query.where((eb) =>
      eb.or([eb('roles.account_id', 'is', null), eb('roles.account_id', '=', accountId)]),
    );
  }
  const rows = await query.orderBy('roles.name').orderBy('roles.id').execute();
  return APPLICATION_CODES.filter((code) => licensed.has(code))
    .map((appCode) => ({
      appCode,
      roles: rows.filter((row) => row.app_code === appCode).map(({ id, name, code }) => ({ id, name, code })),
    }))
    .filter((application) => application.roles.length > 0);
}

/**
 * The whole record of the user `id` (GET user/{id}), read once the route has found it within the
 * caller's reach; undefined when it is gone meanwhile. Of the user's accounts it lists only those
 * the caller sees: a user in reach may have been added to an account the caller has no sight of,
 * whose id, state and partner are not the caller's to learn.
 */
export async function userRecord(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
  now: Date,
): Promise<User | undefined> {
  const [row, accounts, roles, licensed, lastMail] = await Promise.all([
    db
      .selectFrom('users as u')
      .selectAll('u')
      .select((eb) => [statusOf.as('status'), effectivePermissions(eb.ref('u.id')).as('permissions')])
      .where('u.id', '=', id)
      .executeTakeFirst(),
    db
      .selectFrom('accounts')
      .select(['id', 'active', 'partner_account_id'])
      .where((eb) =>
        eb.or([
          eb(
            'accounts.id',
            'in',
            eb.selectFrom('users').select('primary_account_id').where('users.id', '=', id),
          ),
          eb(
            'accounts.id',
            'in',
            eb.selectFrom('user_accounts').select('account_id').where('user_id', '=', id),
          ),
        ]),
      )
      .where(visibleTo(principal))
      .execute(),
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name', 'roles.code', 'roles.app_code', 'roles.account_id'])
      .where('user_roles.user_id', '=', id)
      .where('roles.archived', '=', false)
      .orderBy('roles.name')
      .orderBy('roles.id')
      .execute(),
    licensedApplications(db, now),
    db
      .selectFrom('mail_outbox')
      .select(['kind', 'created_at', 'sent_at', 'failed_at'])
      .where('user_id', '=', id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (!row) return undefined;
  const applications = await applicationRoles(db, id, licensed);
  const timestamp = (value: Date | null) => value?.toISOString() ?? null;
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    user_name: row.user_name,
    email: row.email,
    phone: row.phone,
    locale: row.locale,
    saml_username: row.saml_username,
    oidc_username: row.oidc_username,
    // The platform has no OneLogin connection: no user has an identity there.
    has_onelogin_id: false,
    onelogin_url: null,
    aliases: row.aliases,
    permissions: row.permissions
      .filter(isPermissionName)
      .sort()
      .map((name) => ({ name })),
    accounts: accounts
      .sort((a, b) => Number(b.id === row.primary_account_id) - Number(a.id === row.primary_account_id))
      // Features per account arrive with the licences work.
      .map((account) => ({ ...account, enabled_feature_ids: [] })),
    access_scope: accessScopeOf(row.access_scope),
    primary_account_id: row.primary_account_id,
    // The trust agent's flags do not exist yet.
    primary_account_dta_enabled: false,
    date_format: row.date_format,
    applications: applications.map(({ appCode }) => applicationOf(appCode)),
    kind: row.kind,
    enabled: row.active,
    email_verified: row.email_verified_at !== null,
    status: oneOf(USER_STATUSES, row.status, 'user status'),
    roles: roles.map((role) => ({
      id: role.id,
      name: role.name,
      code: role.code,
      app_code: oneOf(APPLICATION_CODES, role.app_code, 'application'),
      built_in: role.account_id === null,
    })),
    last_sign_in_at: timestamp(row.last_sign_in_at),
    password_changed_at: timestamp(row.password_changed_at),
    created_at: row.created_at.toISOString(),
    mfa: {
      enrolled: row.mfa_enrolled_at !== null,
      locked: row.mfa_locked_until !== null && row.mfa_locked_until > now,
    },
    default_application: row.default_application,
    agreement_accepted_at: timestamp(row.agreement_accepted_at),
    // The last message queued for the user, so an administrator sees an undelivered invitation.
    last_mail:
      lastMail === undefined
        ? null
        : {
            kind: lastMail.kind,
            state: lastMail.sent_at !== null ? 'sent' : lastMail.failed_at !== null ? 'failed' : 'pending',
            at: (lastMail.sent_at ?? lastMail.failed_at ?? lastMail.created_at).toISOString(),
          },
    version: row.version,
  };
}
