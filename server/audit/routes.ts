import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  type AuditCheckpointList,
  type AuditEventList,
  type AuditLogFilters,
  auditCheckpointListQuerySchema,
  auditCheckpointListSchema,
  auditEventIdParamsSchema,
  auditEventListSchema,
  auditEventSchema,
  auditLogExportQuerySchema,
  auditLogListQuerySchema,
  auditVerificationSchema,
} from '../../contract/schemas/audit-log.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import type { AppDeps } from '../app-deps.ts';
import { ACCOUNT_NOT_FOUND, canSeeAccount, seesEveryAccount } from '../authorization/account-reach.ts';
import { assertPermission } from '../authorization/permissions.ts';
import { utcDate } from '../dates.ts';
import { pageAndFilters } from '../db/list-page.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { csvResponse, EXPORT_BATCH_SIZE, streamedFileResponse } from '../http/csv-stream.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { checkpointKeys, checkpointRecord, newestCheckpoint } from './checkpoints.ts';
import { AUDIT_CSV_HEADER, auditCsvLine, auditJsonLine, auditProofLine } from './export.ts';
import {
  auditEventBatches,
  DEFAULT_SORT,
  findReachableAuditEvent,
  listAuditEvents,
  listCheckpoints,
} from './repository.ts';
import { verifyAuditEvent } from './verification.ts';

const EVENT_NOT_FOUND = 'Audit event not found.';

/** An account filter out of reach is 404, never an empty page; then the read permission. */
async function assertListable(db: Kysely<Database>, principal: Principal, filters: AuditLogFilters) {
  if (filters.account_id !== undefined && !(await canSeeAccount(db, principal, filters.account_id))) {
    throw new ApiError(404, ACCOUNT_NOT_FOUND, { field: 'account_id' });
  }
  assertPermission(principal, 'VIEW_AUDIT_LOG');
}

/** Whether a filter or the caller's reach narrows the export, so its lines are not the whole chain. */
function isFiltered(principal: Principal, filters: AuditLogFilters): boolean {
  return !seesEveryAccount(principal) || Object.values(filters).some((value) => value !== undefined);
}

/** The audit log (issue 16, decision 023): read, verify, export; the trail itself is never edited. */
export function auditLogRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const params = validateParams(auditEventIdParamsSchema);

  app.get(
    '/audit-log',
    describeOperation({
      tag: 'Audit log',
      summary:
        'Audit events of the accounts the caller reaches (view audit log; events of no account or of a deleted account, system scope only), filtered by from and to (ISO 8601 instants with offset), action, status, resource_type, user (the actor id) and account_id, sorted by timestamp (desc unless sort=timestamp:asc) and a page at a time (20 unless limit says otherwise); an account filter out of reach is 404.',
      success: { status: 200, description: 'Audit events', schema: auditEventListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(auditLogListQuerySchema),
    async (c) => {
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      await assertListable(db, c.var.principal, filters);
      const list: AuditEventList = await listAuditEvents(db, c.var.principal, filters, page);
      return c.json(list);
    },
  );

  // The next two before `audit-log/:id`, which would otherwise take their names for ids.
  app.get(
    '/audit-log/export',
    describeOperation({
      tag: 'Audit log',
      summary:
        "The list's filters as a file (view audit log), streamed: format=csv in the list's sort, cells a spreadsheet would run defused (text/csv); format=jsonl one event a line in the chain's order, then a proof line {proof: {checkpoint, public_keys, filtered}} with the newest checkpoint at or before the last event (application/jsonl), which npm run audit:verify checks offline.",
      success: {
        status: 200,
        description: 'A CSV file with its header row first, or JSON Lines ending with the proof line',
      },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(auditLogExportQuerySchema),
    async (c) => {
      const { format, sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
      const principal = c.var.principal;
      await assertListable(db, principal, filters);
      const filename = `audit-log-${utcDate(deps.now())}.${format}`;
      if (format === 'csv') {
        return csvResponse(c, {
          header: AUDIT_CSV_HEADER,
          batches: auditEventBatches(db, principal, filters, sort, EXPORT_BATCH_SIZE),
          line: auditCsvLine,
          filename,
        });
      }
      // In the chain's order whatever `sort` says: a reader checks each line's link to the one before.
      let lastSeq: number | null = null;
      async function* tracked() {
        for await (const batch of auditEventBatches(db, principal, filters, 'chain', EXPORT_BATCH_SIZE)) {
          lastSeq = batch.at(-1)?.seq ?? lastSeq;
          yield batch;
        }
      }
      return streamedFileResponse(c, {
        head: '',
        batches: tracked(),
        line: auditJsonLine,
        tail: async () =>
          auditProofLine({
            checkpoint: lastSeq === null ? null : ((await newestCheckpoint(db, lastSeq)) ?? null),
            public_keys: await checkpointKeys(db),
            filtered: isFiltered(principal, filters),
          }),
        contentType: 'application/jsonl; charset=utf-8',
        filename,
      });
    },
  );

  app.get(
    '/audit-log/checkpoints',
    describeOperation({
      tag: 'Audit log',
      summary:
        "The signed checkpoints of the audit chain's head, newest first, with the Ed25519 public keys that check them (view audit log), as an attachment to keep apart from the server.",
      success: { status: 200, description: 'Checkpoints and their keys', schema: auditCheckpointListSchema },
      failures: [400, 403],
    }),
    authenticated,
    validateQuery(auditCheckpointListQuerySchema),
    async (c) => {
      const { limit = DEFAULT_LIST_LIMIT, offset = 0 } = c.req.valid('query');
      assertPermission(c.var.principal, 'VIEW_AUDIT_LOG');
      const [{ rows, total }, publicKeys] = await Promise.all([
        listCheckpoints(db, limit, offset),
        checkpointKeys(db),
      ]);
      const list: AuditCheckpointList = {
        items: rows.map(checkpointRecord),
        total,
        public_keys: publicKeys,
      };
      // A file to keep apart from the server: `npm run audit:verify` checks an export against it.
      c.header('Content-Disposition', `attachment; filename="audit-checkpoints-${utcDate(deps.now())}.json"`);
      return c.json(list);
    },
  );

  app.get(
    '/audit-log/:id',
    describeOperation({
      tag: 'Audit log',
      summary: 'One audit event the caller reaches (view audit log), with its hash and the previous hash.',
      success: { status: 200, description: 'Audit event', schema: auditEventSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    params,
    async (c) => {
      const event = await findReachableAuditEvent(db, c.var.principal, c.req.valid('param').id);
      if (!event) throw new ApiError(404, EVENT_NOT_FOUND);
      assertPermission(c.var.principal, 'VIEW_AUDIT_LOG');
      return c.json(event);
    },
  );

  app.get(
    '/audit-log/:id/verify',
    describeOperation({
      tag: 'Audit log',
      summary:
        "Whether the event's own hash holds, the chain from the first event through it (and on to the newest checkpoint when later) is intact, and the newest checkpoint is signed by a registered key with its head still stored; if not, where it breaks (altered, unlinked, missing). The chain is read in batches, so memory stays flat.",
      success: { status: 200, description: 'Verification', schema: auditVerificationSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    params,
    async (c) => {
      const event = await findReachableAuditEvent(db, c.var.principal, c.req.valid('param').id);
      if (!event) throw new ApiError(404, EVENT_NOT_FOUND);
      assertPermission(c.var.principal, 'VIEW_AUDIT_LOG');
      return c.json(await verifyAuditEvent(db, event));
    },
  );

  return app;
}
