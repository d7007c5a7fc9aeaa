import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { AuditAction, AuditResourceType } from '../../contract/audit.ts';
import type { AppDeps } from '../app-deps.ts';
import { recordAuditEvent } from '../audit/record.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';

export interface AccountChange {
  action: AuditAction;
  accountId: string;
  /** The account itself unless given. */
  resource?: { type: AuditResourceType; id: string };
  details: Record<string, unknown>;
}

/**
 * Records a successful change in an account, by the caller of `c`, in the transaction that made it.
 * `details` say what changed for the people reading the trail; never passwords or hashes.
 */
export function auditAccountChange(
  trx: Kysely<Database>,
  c: Context<AppEnv>,
  deps: Pick<AppDeps, 'config' | 'now'>,
  event: AccountChange,
) {
  const principal = c.var.principal;
  return recordAuditEvent(trx, {
    action: event.action,
    status: 'success',
    resourceType: event.resource?.type ?? 'ACCOUNT',
    resourceId: event.resource?.id ?? event.accountId,
    accountId: event.accountId,
    actorId: principal.userId,
    actorName: principal.userName,
    ipAddress: clientAddress(c, deps.config),
    details: event.details,
    occurredAt: deps.now(),
  });
}
