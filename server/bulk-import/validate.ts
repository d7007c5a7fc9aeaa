import type { Kysely } from 'kysely';
import * as v from 'valibot';
import type { PlatformLocale } from '../../contract/locales.ts';
import type { AccessScope } from '../../contract/permissions.ts';
import { BULK_ROW_CODES, type BulkRowCode, type BulkRowError } from '../../contract/schemas/bulk-import.ts';
import { userCreateSchema } from '../../contract/schemas/users.ts';
import { type BulkUserCsvColumn, ROLE_NAME_SEPARATOR } from '../../contract/user-csv.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { holds, roleFitsUser } from '../authorization/grants.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import { ROLE_NOT_FOUND, reachesAccount, roleReach } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import { readFeatureFlags } from '../feature-flags/index.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import { scopeOfAccountType, takenUserNames } from '../users/index.ts';
import type { ParsedRow } from './parse.ts';

/**
 * The checks of the bulk user file's rows (decision 038): every field rule of creating a user (the
 * contract's own `userCreateSchema` field schemas), formula cells, user names repeated in the file or
 * taken on the platform (one query for the whole file), and the roles against the creator (G5, G6).
 * The dry run and the runner both call them, the runner again for each row just before creating it.
 */

/** The account the users join, as the checks need it. */
export interface BulkAccount {
  id: string;
  locale: string;
  active: boolean;
  /** The scope its users get: from the account's type. */
  scope: AccessScope;
}

/** A role a row may name, with what G5 and G6 need. */
export interface BulkRole {
  id: string;
  name: string;
  code: string | null;
  account_id: string | null;
  archived: boolean;
  permissions: string[];
}

/** The account if `principal` reaches its users, whatever its state; undefined otherwise. */
export async function readBulkAccount(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
): Promise<BulkAccount | undefined> {
  if (!(await reachesAccount(db, principal, accountId))) return undefined;
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'type', 'locale', 'active'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row && { id: row.id, locale: row.locale, active: row.active, scope: scopeOfAccountType(row.type) };
}

/**
 * The account of a dry run, checked before a byte of the file is read: 404 out of reach (G1), 403
 * without the permission of creating users there (G2), 409 when it is inactive.
 */
export async function bulkAccountFor(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string,
): Promise<BulkAccount> {
  const account = await readBulkAccount(db, principal, accountId);
  if (account === undefined) throw new ApiError(404, ACCOUNT_NOT_FOUND, { field: 'account_id' });
  assertUserAccess(principal, account.scope, 'manage');
  if (!account.active) {
    throw new ApiError(409, 'Users cannot be created in an inactive account.', { field: 'account_id' });
  }
  return account;
}

/**
 * The roles a row may name, by name without case: the built-in ones and, with the roles feature on,
 * the account's custom ones that are not archived. Anything else (archived, another account's, out
 * of reach, unknown) is simply not there, so the row gets one `unknownRole` whatever the cause.
 */
export async function rolesByName(db: Kysely<Database>, accountId: string): Promise<Map<string, BulkRole>> {
  const flags = await readFeatureFlags(db);
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'name', 'code', 'account_id', 'archived', 'permissions'])
    .where('archived', '=', false)
    .where((eb) =>
      flags.roles
        ? eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)])
        : eb('account_id', 'is', null),
    )
    // Built-in roles first (nulls lead a descending order), so a custom role of the same name never hides one.
    .orderBy('account_id', 'desc')
    .execute();
  const roles = new Map<string, BulkRole>();
  for (const row of rows) {
    const key = row.name.trim().toLowerCase();
    if (!roles.has(key)) roles.set(key, row);
  }
  return roles;
}

/**
 * The page's default roles as they are now, for the runner: each still assignable in the account
 * (not archived, built in or the account's own, custom ones only with the roles feature on), else
 * undefined, which makes a row relying on it fail with `unknownRole`.
 */
export async function currentDefaultRoles(
  db: Kysely<Database>,
  accountId: string,
  roleIds: readonly string[],
): Promise<(BulkRole | undefined)[]> {
  if (roleIds.length === 0) return [];
  const known = await rolesByName(db, accountId);
  const byId = new Map([...known.values()].map((role) => [role.id, role]));
  return roleIds.map((id) => byId.get(id));
}

/**
 * The page's default roles, which every row without a `roles` cell gets: each must be a role the
 * creator reaches of this account or built in (404), hold nothing the creator lacks (403
 * `permissionNotHeld`), and fit the account's users (400 `roleNotForUser`); with the roles feature off
 * a custom one is 409 `rolesFeatureOff`.
 */
export async function defaultRolesFor(
  db: Kysely<Database>,
  principal: Principal,
  account: BulkAccount,
  roleIds: readonly string[],
): Promise<BulkRole[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('roles')
    .select(['id', 'name', 'code', 'account_id', 'archived', 'permissions'])
    .where('id', 'in', [...new Set(roleIds)])
    .where(roleReach(principal))
    .where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', account.id)]))
    .execute();
  if (rows.length !== new Set(roleIds).size) throw new ApiError(404, ROLE_NOT_FOUND, { field: 'role_ids' });
  const user = { access_scope: account.scope, primary_account_id: account.id };
  for (const role of rows) {
    const missing = role.permissions.find((name) => !holds(principal, name));
    if (missing !== undefined) {
      throw new ApiError(403, `You cannot grant ${missing}, which you do not hold.`, {
        field: 'role_ids',
        code: 'permissionNotHeld',
      });
    }
  }
  if (rows.some((role) => role.account_id !== null) && !(await readFeatureFlags(db)).roles) {
    throw new ApiError(409, 'Custom roles are turned off.', { field: 'role_ids', code: 'rolesFeatureOff' });
  }
  for (const role of rows) if (!roleFitsUser(role, user)) throw invalidField('role_ids', 'roleNotForUser');
  return rows;
}

/** The fields of one user of the file, as the contract's schemas give them back. */
export interface BulkUserFields {
  first_name: string;
  last_name: string;
  email: string;
  user_name: string;
  phone: string;
  locale: PlatformLocale;
}

const FIELD_SCHEMAS = {
  first_name: userCreateSchema.entries.first_name,
  last_name: userCreateSchema.entries.last_name,
  email: userCreateSchema.entries.email,
  user_name: userCreateSchema.entries.user_name,
  phone: userCreateSchema.entries.phone,
  locale: userCreateSchema.entries.locale,
} as const;
const FIELD_COLUMNS = Object.keys(FIELD_SCHEMAS) as (keyof typeof FIELD_SCHEMAS)[];

/** Starts like a spreadsheet formula: `= + - @` (after blanks), or a leading tab or carriage return. */
const FORMULA_START = /^[=+\-@]/;
const HIDDEN_FORMULA_START = /^[\t\r]/;
/** A phone number in international form is the one cell that may start with `+`. */
const INTERNATIONAL_PHONE = /^\+[0-9][0-9 ().-]*$/;

function isFormula(column: BulkUserCsvColumn, raw: string, trimmed: string): boolean {
  if (HIDDEN_FORMULA_START.test(raw)) return true;
  if (!FORMULA_START.test(trimmed)) return false;
  return !(column === 'phone' && INTERNATIONAL_PHONE.test(trimmed));
}

function rowCode(code: string): BulkRowCode {
  return (BULK_ROW_CODES as readonly string[]).includes(code) ? (code as BulkRowCode) : 'invalidValue';
}

/** What a row's cells name and break, before anything is looked up. */
export interface CheckedRow {
  errors: BulkRowError[];
  fields: Partial<BulkUserFields>;
  /** The roles the row names, by name as written; empty means the page's defaults. */
  roleNames: string[];
}

/** The checks of one row that need no database: cell count, formulas, every field rule. */
export function checkCells(row: Pick<ParsedRow, 'cells' | 'raw' | 'cellCountMatches'>, account: BulkAccount) {
  const errors: BulkRowError[] = [];
  if (!row.cellCountMatches) errors.push({ column: 'row', code: 'wrongCellCount' });
  const formulas = new Set<BulkUserCsvColumn>();
  for (const [column, raw] of Object.entries(row.raw) as [BulkUserCsvColumn, string][]) {
    if (isFormula(column, raw, row.cells[column] ?? '')) {
      formulas.add(column);
      errors.push({ column, code: 'formulaCell' });
    }
  }
  const fields: Partial<BulkUserFields> = {};
  for (const column of FIELD_COLUMNS) {
    if (formulas.has(column)) continue;
    // A cell past the end of a short row is empty; an empty language takes the account's.
    let value = row.cells[column] ?? '';
    if (column === 'locale' && value === '') value = account.locale;
    const result = v.safeParse(FIELD_SCHEMAS[column], value);
    if (result.success) Object.assign(fields, { [column]: result.output });
    else errors.push({ column, code: rowCode(result.issues[0]?.message ?? 'invalidValue') });
  }
  const roleNames = formulas.has('roles')
    ? []
    : (row.cells.roles ?? '')
        .split(ROLE_NAME_SEPARATOR)
        .map((name) => name.trim())
        .filter((name) => name !== '');
  return { errors, fields, roleNames } satisfies CheckedRow;
}

/**
 * The roles of a row against the creator: each name known (else `unknownRole`), granting nothing the
 * creator lacks (G5, `permissionNotHeld`) and fitting the new user (G6, `roleNotForUser`). A row
 * naming none takes the page's defaults (undefined where a default role is gone since); with
 * neither, `required`.
 */
export function checkRoles(
  names: readonly string[],
  known: ReadonlyMap<string, BulkRole>,
  defaults: readonly (BulkRole | undefined)[],
  creator: Principal,
  account: BulkAccount,
): { errors: BulkRowError[]; roles: BulkRole[] } {
  const named = names.length === 0 ? defaults : names.map((name) => known.get(name.toLowerCase()));
  if (named.length === 0) return { errors: [{ column: 'roles', code: 'required' }], roles: [] };
  const user = { access_scope: account.scope, primary_account_id: account.id };
  const errors: BulkRowError[] = [];
  const roles = new Map<string, BulkRole>();
  for (const role of named) {
    let code: BulkRowCode | null = null;
    if (role === undefined) code = 'unknownRole';
    else if (role.permissions.some((permission) => !holds(creator, permission))) code = 'permissionNotHeld';
    else if (!roleFitsUser(role, user)) code = 'roleNotForUser';
    if (code !== null) {
      if (!errors.some((error) => error.code === code)) errors.push({ column: 'roles', code });
    } else if (role !== undefined) roles.set(role.id, role);
  }
  return { errors, roles: [...roles.values()] };
}

/** A row of the dry run, ready to store. */
export interface ValidatedRow {
  row: number;
  line: number;
  cells: Partial<Record<BulkUserCsvColumn, string>>;
  errors: BulkRowError[];
}

/**
 * The dry run's checks of every row: the cells, then user names repeated in the file (naming the
 * first row) or taken on the platform, then the roles against the creator. Also answers how many of
 * the taken names belong to users outside the creator's reach, which the upload counts as probes
 * (decision 041).
 */
export async function validateRows(
  db: Kysely<Database>,
  creator: Principal,
  account: BulkAccount,
  defaults: readonly BulkRole[],
  rows: readonly ParsedRow[],
): Promise<{ rows: ValidatedRow[]; outsideReach: number }> {
  const known = await rolesByName(db, account.id);
  const checked = rows.map((row) => ({ row, ...checkCells(row, account) }));
  const { taken, outsideReach } = await takenUserNames(
    db,
    creator,
    checked.flatMap(({ fields }) => (fields.user_name === undefined ? [] : [fields.user_name])),
  );
  const firstRowOf = new Map<string, number>();
  const validated = checked.map(({ row, errors, fields, roleNames }) => {
    const key = fields.user_name?.toLowerCase();
    if (key !== undefined) {
      const first = firstRowOf.get(key);
      if (first !== undefined)
        errors.push({ column: 'user_name', code: 'duplicateInFile', first_row: first });
      else {
        firstRowOf.set(key, row.row);
        if (taken.has(key)) errors.push({ column: 'user_name', code: 'inUse' });
      }
    }
    errors.push(...checkRoles(roleNames, known, defaults, creator, account).errors);
    return { row: row.row, line: row.line, cells: row.cells, errors };
  });
  return { rows: validated, outsideReach };
}
