import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type {
  AuditAction,
  AuditFieldChange,
  AuditResourceType,
  AuditUpdateDetails,
} from '../../contract/audit.ts';
import type { AppDeps } from '../app-deps.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { recordAuditEvent } from './record.ts';

export type ChangeAction = Extract<AuditAction, 'CREATE' | 'UPDATE' | 'DELETE'>;

/** One successful change of one object, as the audit trail keeps it. */
export interface AuditedChange {
  /** CREATE, UPDATE, DELETE, or one of the user actions the spec names (a password set, a reset sent, terms accepted). */
  action:
    | ChangeAction
    | Extract<
        AuditAction,
        | 'UPDATE_PASSWORD'
        | 'SEND_RESET_PASSWORD'
        | 'SEND_CLIENT_AUTH_SETUP'
        | 'SEND_USER_MAIL'
        | 'TERMS_AND_CONDITIONS'
      >;
  resourceType: AuditResourceType;
  resourceId: string;
  /** The account the object belongs to: whose trail the event appears in. */
  accountId: string;
  /**
   * CREATE and DELETE: how the object is named (ids and names). UPDATE: `updateDetails(…)`, the one
   * format of `AuditUpdateDetails`. Never passwords, tokens, keys or personal data beyond a name.
   */
  details: Record<string, unknown>;
}

/**
 * The fields of `after` whose values differ from `before`, with both values for the fields listed in
 * `disclosed` and `{ withheld: true }` for the others: a field is kept out of the trail unless its
 * value is known to be fit for it, so a new column never leaks by default.
 */
export function updateDetails(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  disclosed: readonly string[],
): AuditUpdateDetails {
  const changes: Record<string, AuditFieldChange> = {};
  for (const [field, to] of Object.entries(after)) {
    const from = before[field];
    if (from === to) continue;
    changes[field] = disclosed.includes(field) ? { from, to } : { withheld: true };
  }
  return { changes };
}

/** Whether an update changes nothing, so the caller may skip the write and its event. */
export function changesNothing(details: AuditUpdateDetails): boolean {
  return Object.keys(details.changes).length === 0;
}

/**
 * Records a successful change made by the signed-in caller of `c`, in the transaction that made it,
 * so the change and its event commit together or not at all. Every route that changes an object
 * records it here; sign-in events and the anonymous setup steps call `recordAuditEvent` directly.
 * A change made with an API token names the token (`api_key_id`), so the trail shows that a token,
 * not a browser session, acted for its user.
 */
export function auditChange(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: Pick<AppDeps, 'config' | 'now'>,
  change: AuditedChange,
) {
  return auditChangeBy(trx, requestActor(c, deps.config), deps, change);
}

/** The signed-in caller of `c` as the trail names an actor: who, from where, and with which API token. */
export function requestActor(c: Context<AppEnv>, config: AppDeps['config']): AuditActor {
  const { credential, userId, userName } = c.var.principal;
  return {
    id: userId,
    name: userName,
    address: clientAddress(c, config),
    userAgent: c.req.header('user-agent') ?? null,
    ...(credential.kind === 'apiToken' ? { apiKeyId: credential.tokenId } : {}),
  };
}

/** Who made a change, named explicitly where no request carries a signed-in caller. */
export interface AuditActor {
  id: string;
  name: string;
  /** The client address the change was asked from, when known. */
  address: string | null;
  /** The client's User-Agent, when a request carried one. */
  userAgent?: string | null;
  /** The API token the change was made with, if any. */
  apiKeyId?: string;
}

/**
 * Records a successful change made by `actor`, in the transaction that made it (decision 038):
 * what a background job does for the person who started it (each user a bulk job creates), and what
 * a public link does for its user. `auditChange` is this for request handlers.
 */
export function auditChangeBy(
  trx: Kysely<Database>,
  actor: AuditActor,
  deps: Pick<AppDeps, 'now'>,
  change: AuditedChange,
) {
  return recordAuditEvent(trx, {
    ...change,
    details:
      actor.apiKeyId === undefined ? change.details : { ...change.details, api_key_id: actor.apiKeyId },
    status: 'success',
    actorId: actor.id,
    actorName: actor.name,
    ipAddress: actor.address,
    userAgent: actor.userAgent ?? null,
    occurredAt: deps.now(),
  });
}
