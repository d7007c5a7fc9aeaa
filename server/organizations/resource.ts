import type { Context } from 'hono';
import type { Kysely, Updateable } from 'kysely';
import type { AuditAction, AuditResourceType } from '../../contract/audit.ts';
import { canSeeAccount } from '../accounts/access.ts';
import type { AppDeps } from '../app-deps.ts';
import { recordAuditEvent } from '../audit/record.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import {
  assertIfMatchPresent,
  assertWellFormedIfMatch,
  entityTag,
  ifMatchAdmits,
  PreconditionFailed,
} from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';
import { assertOrganizationPermission, type OrganizationAccess } from './access.ts';
import { deleteVersioned, type Located, updateVersioned, type VersionedTable } from './repository.ts';

/** A stored object as the API answers it; `version` is its entity tag. */
export type VersionedRow = { id: string; version: number } & Record<string, string | number>;

/** How the routes find and describe one kind of object, an organization or a contact, and where it is stored. */
export interface ResourceKind<TTable extends VersionedTable, TParams, TRow extends VersionedRow> {
  table: TTable;
  /** Subject of the 404 and 412 messages: `Organization`, `Contact`. */
  label: string;
  resourceType: AuditResourceType;
  /** The addressed row and its account, or undefined; `lock` holds the row until the transaction ends. */
  find(db: Kysely<Database>, params: TParams, lock: boolean): Promise<Located<TRow> | undefined>;
  /** How the audit trail names the object: ids and names, never other personal data. */
  describe(row: TRow): Record<string, unknown>;
  /** Audit details of a deletion beyond `describe`, such as what the deletion took with it. */
  describeRemoval?(row: TRow): Record<string, unknown>;
  /** The path the object is read at, for the Location header of its creation. */
  location(row: TRow): string;
}

interface AuditFacts {
  action: Extract<AuditAction, 'CREATE' | 'UPDATE' | 'DELETE'>;
  resourceId: string;
  accountId: string;
  details: Record<string, unknown>;
}

/** The fields whose values a change replaces, by name: what an UPDATE event records. */
function changedFields(row: object, fields: object): string[] {
  const before = new Map(Object.entries(row));
  return Object.entries(fields)
    .filter(([key, value]) => before.get(key) !== value)
    .map(([key]) => key);
}

/**
 * Reading, creating, changing and deleting objects of one kind, with the same rules for every kind:
 * an object out of the caller's reach answers 404 exactly like a missing one; one within reach
 * answers 403 without the permission; every change and its audit event commit together.
 */
export function resourceActions<TTable extends VersionedTable, TParams, TRow extends VersionedRow>(
  deps: AppDeps,
  kind: ResourceKind<TTable, TParams, TRow>,
) {
  const { db, config } = deps;

  async function locate(
    database: Kysely<Database>,
    principal: Principal,
    params: TParams,
    access: OrganizationAccess,
    lock: boolean,
  ): Promise<Located<TRow>> {
    const found = await kind.find(database, params, lock);
    if (!found || !(await canSeeAccount(database, principal, found.accountId))) {
      throw new ApiError(404, `${kind.label} not found.`);
    }
    assertOrganizationPermission(principal, access);
    return found;
  }

  /**
   * The object a change addresses, locked, once the caller's If-Match admitted its version: 400 for
   * a malformed If-Match, then 404 and 403, then 428 without one and 412 with an older version.
   */
  async function locateForChange(trx: Kysely<Database>, c: Context<AppEnv>, params: TParams) {
    const ifMatch = c.req.header('If-Match');
    assertWellFormedIfMatch(ifMatch, kind.label.toLowerCase());
    const found = await locate(trx, c.var.principal, params, 'manage', true);
    assertIfMatchPresent(ifMatch, kind.label.toLowerCase());
    if (!ifMatchAdmits(ifMatch, found.row.version)) {
      // The row as GET answers it: `find` reads the same columns with or without the lock.
      throw new PreconditionFailed(
        `${kind.label} has changed since it was read; reload it and apply the change again.`,
        found.row,
        entityTag(found.row.version),
      );
    }
    return found;
  }

  /** Runs a change and records its audit event in one transaction: both are stored, or neither. */
  async function change<TResult>(
    c: Context<AppEnv>,
    work: (trx: Kysely<Database>, now: Date) => Promise<[TResult, AuditFacts]>,
  ): Promise<TResult> {
    const principal = c.var.principal;
    const now = deps.now();
    return db.transaction().execute(async (trx) => {
      const [result, facts] = await work(trx, now);
      await recordAuditEvent(trx, {
        ...facts,
        status: 'success',
        resourceType: kind.resourceType,
        actorId: principal.userId,
        actorName: principal.userName,
        ipAddress: clientAddress(c, config),
        occurredAt: now,
      });
      return result;
    });
  }

  return {
    locate,

    async read(c: Context<AppEnv>, params: TParams): Promise<Response> {
      const { row } = await locate(db, c.var.principal, params, 'view', false);
      c.header('ETag', entityTag(row.version));
      return c.json(row);
    },

    /**
     * Creates an object once `authorizeParent` (which throws 404 or 403) has answered the account it
     * will belong to.
     */
    async create(
      c: Context<AppEnv>,
      authorizeParent: (trx: Kysely<Database>) => Promise<string>,
      insert: (trx: Kysely<Database>, now: Date) => Promise<TRow>,
    ): Promise<Response> {
      const row = await change(c, async (trx, now) => {
        const accountId = await authorizeParent(trx);
        const created = await insert(trx, now);
        return [
          created,
          { action: 'CREATE', resourceId: created.id, accountId, details: kind.describe(created) },
        ];
      });
      c.header('Location', kind.location(row));
      c.header('ETag', entityTag(row.version));
      return c.json(row, 201);
    },

    async update(
      c: Context<AppEnv>,
      params: TParams,
      fields: Updateable<Database[TTable]>,
    ): Promise<Response> {
      await change(c, async (trx, now) => {
        const { row, accountId } = await locateForChange(trx, c, params);
        await updateVersioned(trx, kind.table, row.id, fields, now);
        const before = kind.describe(row);
        const after = kind.describe({ ...row, ...fields });
        const renamed = JSON.stringify(before) !== JSON.stringify(after);
        const details = {
          ...after,
          changed: changedFields(row, fields),
          ...(renamed ? { previously: before } : {}),
        };
        return [undefined, { action: 'UPDATE', resourceId: row.id, accountId, details }];
      });
      return c.body(null, 204);
    },

    async remove(c: Context<AppEnv>, params: TParams): Promise<Response> {
      await change(c, async (trx) => {
        const { row, accountId } = await locateForChange(trx, c, params);
        await deleteVersioned(trx, kind.table, row.id);
        const details = { ...kind.describe(row), ...kind.describeRemoval?.(row) };
        return [undefined, { action: 'DELETE', resourceId: row.id, accountId, details }];
      });
      return c.body(null, 204);
    },
  };
}
