import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { AuditResourceType } from '../../contract/audit.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditedChange, auditChange } from '../audit/change.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import {
  assertIfMatchPresent,
  assertWellFormedIfMatch,
  entityTag,
  ifMatchAdmits,
  PreconditionFailed,
} from '../http/entity-tags.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/** A stored object with the version its ETag carries. */
export interface Versioned {
  id: string;
  version: number;
}

/** An object a route addresses, with the account whose reach decides who may see it. */
export interface Located<TRow> {
  row: TRow;
  accountId: string;
}

/** Reading needs the view permission of the kind (or its manage permission); changing needs manage. */
export type Access = 'view' | 'manage';

/** How the routes find, authorize and show one kind of object: an account, an organization, a contact… */
export interface ResourceKind<TParams, TRow extends Versioned> {
  /** Subject of the answers' messages: `Account`, `Organization`, `Contact`. */
  label: string;
  resourceType: AuditResourceType;
  /**
   * The addressed object when it exists within the caller's reach, else undefined (answered 404, so
   * an object out of reach is indistinguishable from a missing one). `lock` holds the row until the
   * transaction ends, so the checks made on it still hold when the change is written.
   */
  find(
    db: Kysely<Database>,
    principal: Principal,
    params: TParams,
    lock: boolean,
  ): Promise<Located<TRow> | undefined>;
  /**
   * Throws 403 when the caller lacks the permission `access` needs; runs only once the object is
   * known to be within reach.
   */
  authorize(principal: Principal, found: Located<TRow>, access: Access): void;
  /** The object as its GET answers it, for the read and the 412 body; the row itself when absent. */
  represent?(db: Kysely<Database>, principal: Principal, found: Located<TRow>): Promise<unknown>;
}

/** Whether a change must name the version it was made on (the edits the console may queue offline). */
export type Precondition = 'required' | 'honoured';

/** One change of one object: the checks of its own, the write, and what the audit trail keeps. */
export interface ChangeSpec<TRow> {
  precondition: Precondition;
  /**
   * Rules of the kind that refuse this change of this object, with 403 or 409 (a protected object),
   * before the version is compared: a caller who may never make the change learns nothing from a 412.
   * `trx` serves rules that read stored settings, such as whether a feature is on.
   */
  permit?(found: Located<TRow>, trx: Kysely<Database>): void | Promise<void>;
  /**
   * Checks that depend on the request's values (400) and the write; answers the audit facts, or null
   * for a change that changes nothing and is neither written nor recorded.
   */
  apply(
    trx: Kysely<Database>,
    found: Located<TRow>,
    now: Date,
  ): Promise<Pick<AuditedChange, 'action' | 'details'> | null>;
}

/** A new object: where it goes, the write, and how the trail and the Location header name it. */
export interface CreateSpec<TRow> {
  /** The account the object will belong to, once the caller may create in it (404, then 403). */
  authorizeParent(trx: Kysely<Database>): Promise<string>;
  insert(trx: Kysely<Database>, now: Date): Promise<TRow>;
  /** How the audit trail names the object: ids and names, never other personal data. */
  describe(row: TRow): Record<string, unknown>;
  /** The path the object is read at. */
  location(row: TRow): string;
}

/** A version check of a change, for any versioned object, also one that is no `ResourceKind`. */
export interface VersionCheck {
  /** How the 428 names the object: `enrollment`, `licence`. */
  subject: string;
  /** The 412's message. */
  changed: string;
  /** The version the object has now, under the change's lock. */
  version: number;
  /** The object as its GET answers it, sent with the 412. */
  current(): unknown;
}

/**
 * Step 4 below: 428 without If-Match where the change requires one, 412 with the object as it is
 * when If-Match names another version. The header was found well formed before anything was read.
 */
export async function assertChangeOnVersion(
  ifMatch: string | undefined,
  precondition: Precondition,
  check: VersionCheck,
): Promise<void> {
  if (precondition === 'required') assertIfMatchPresent(ifMatch, check.subject);
  if (!ifMatchAdmits(ifMatch, check.version)) {
    throw new PreconditionFailed(check.changed, await check.current(), entityTag(check.version));
  }
}

/**
 * Reading, creating and changing objects of one kind, with the same checks in the same order for
 * every kind (decision 014):
 *
 * 1. 400 for a malformed If-Match (before anything is looked up);
 * 2. 404 for an object that does not exist or is out of the caller's reach;
 * 3. 403 without the permission, then the kind's own refusals (403, or 409 for a protected object);
 * 4. 428 without If-Match where the change requires one, 412 when it names an older version, with the
 *    object as its GET answers it, read under the lock the change holds;
 * 5. the change's own checks of the values (400), the write and its audit event, in one transaction.
 */
export function versionedResource<TParams, TRow extends Versioned>(
  deps: AppDeps,
  kind: ResourceKind<TParams, TRow>,
) {
  const { db } = deps;
  const subject = kind.label.toLowerCase();

  async function locate(
    database: Kysely<Database>,
    principal: Principal,
    params: TParams,
    access: Access,
    lock: boolean,
  ): Promise<Located<TRow>> {
    const found = await kind.find(database, principal, params, lock);
    if (!found) throw new ApiError(404, `${kind.label} not found.`);
    kind.authorize(principal, found, access);
    return found;
  }

  function represent(database: Kysely<Database>, principal: Principal, found: Located<TRow>) {
    return kind.represent ? kind.represent(database, principal, found) : Promise.resolve(found.row);
  }

  /**
   * Steps 1 to 4 inside the caller's transaction: the addressed object within reach, permitted,
   * locked and on the version the request names. `change` runs it; a change whose answer is more
   * than 204 (a resend answering its new link) runs it itself.
   */
  async function lockForChange(
    trx: Kysely<Database>,
    c: Context<AppEnv>,
    params: TParams,
    spec: Pick<ChangeSpec<TRow>, 'precondition' | 'permit'>,
  ): Promise<Located<TRow>> {
    const principal = c.var.principal;
    const ifMatch = c.req.header('If-Match');
    assertWellFormedIfMatch(ifMatch, subject);
    const found = await locate(trx, principal, params, 'manage', true);
    await spec.permit?.(found, trx);
    await assertChangeOnVersion(ifMatch, spec.precondition, {
      subject,
      changed: `${kind.label} has changed since it was read; reload it and apply the change again.`,
      version: found.row.version,
      current: () => represent(trx, principal, found),
    });
    return found;
  }

  return {
    locate,
    lockForChange,

    async read(c: Context<AppEnv>, params: TParams): Promise<Response> {
      const found = await locate(db, c.var.principal, params, 'view', false);
      c.header('ETag', entityTag(found.row.version));
      return c.json(await represent(db, c.var.principal, found));
    },

    /**
     * Creates an object once `spec.authorizeParent` (which throws 404 or 403 like `locate`) has
     * answered the account it will belong to; answers 201 with the object, its Location and ETag.
     */
    async create(c: Context<AppEnv>, spec: CreateSpec<TRow>): Promise<Response> {
      const now = deps.now();
      const row = await db.transaction().execute(async (trx) => {
        const accountId = await spec.authorizeParent(trx);
        const created = await spec.insert(trx, now);
        await auditChange(trx, c, deps, {
          action: 'CREATE',
          resourceType: kind.resourceType,
          resourceId: created.id,
          accountId,
          details: spec.describe(created),
        });
        return created;
      });
      c.header('Location', spec.location(row));
      c.header('ETag', entityTag(row.version));
      return c.json(row, 201);
    },

    /** Runs `spec` on the addressed object through the checks above; answers 204. */
    async change(c: Context<AppEnv>, params: TParams, spec: ChangeSpec<TRow>): Promise<Response> {
      const principal = c.var.principal;
      await db.transaction().execute(async (trx) => {
        const found = await lockForChange(trx, c, params, spec);
        const audited = await spec.apply(trx, found, deps.now());
        if (audited !== null) {
          await auditChange(trx, c, deps, {
            ...audited,
            resourceType: kind.resourceType,
            resourceId: found.row.id,
            accountId: found.accountId,
          });
        }
        // The version the object has now, for a client whose next change builds on this one (the
        // outbox rebases the changes queued behind it). None once the change removed the object.
        const written = await kind.find(trx, principal, params, false);
        if (written) c.header('ETag', entityTag(written.row.version));
      });
      return c.body(null, 204);
    },
  };
}
