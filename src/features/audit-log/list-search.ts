import * as v from 'valibot';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, AUDIT_STATUSES } from '../../../contract/audit.ts';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import {
  AUDIT_LOG_SORT_COLUMNS,
  type AuditLogSortColumn,
  formatSort,
  type SortOrder,
} from '../../../contract/sort-columns.ts';
import {
  choiceSearch,
  idSearch,
  pageQuery,
  pageSearch,
  sortOf,
  sortSearch,
} from '../../components/list/list-search.ts';
import { Temporal } from '../../lib/temporal.ts';

/** Newest first, as an auditor reads a trail. */
export const DEFAULT_AUDIT_LOG_SORT: SortOrder<AuditLogSortColumn> = {
  column: 'timestamp',
  direction: 'desc',
};

/**
 * The actions the filter offers: the spec's list (P-07), without the actions beyond it, whose events
 * still show in the unfiltered log.
 */
export const AUDIT_FILTER_ACTIONS = AUDIT_ACTIONS.filter(
  (action) => action !== 'SEND_CLIENT_AUTH_SETUP' && action !== 'SEND_USER_MAIL',
);

/** A day of the date-range filter, `YYYY-MM-DD`; anything else is dropped. */
const daySearch = v.fallback(v.optional(v.pipe(v.string(), v.isoDate())), undefined);

/** The log's address: the days it spans, action, status, resource type, user, account, sort and page. */
export const auditLogSearchSchema = v.object({
  from: daySearch,
  to: daySearch,
  action: choiceSearch(AUDIT_ACTIONS),
  status: choiceSearch(AUDIT_STATUSES),
  resource_type: choiceSearch(AUDIT_RESOURCE_TYPES),
  /** The acting user's id. */
  user: idSearch,
  account: idSearch,
  sort: sortSearch(AUDIT_LOG_SORT_COLUMNS),
  page: pageSearch,
});
export type AuditLogSearch = v.InferOutput<typeof auditLogSearchSchema>;

/** The filters as GET audit-log and its export read them: every value a string, absent ones left out. */
export interface AuditLogFilterQuery {
  from?: string;
  to?: string;
  action?: string;
  status?: string;
  resource_type?: string;
  user?: string;
  account_id?: string;
  sort: string;
}

export type AuditLogListQuery = AuditLogFilterQuery & { limit: string; offset: string };

export function auditLogSortOf(search: AuditLogSearch): SortOrder<AuditLogSortColumn> {
  return sortOf(AUDIT_LOG_SORT_COLUMNS, search.sort, DEFAULT_AUDIT_LOG_SORT);
}

/**
 * The first instant of a day where the user is, and the last: the range's days are the user's
 * calendar days, while the API takes instants, which mean the same in every time zone.
 */
function dayStart(day: string, timeZone: string): Temporal.Instant {
  return Temporal.PlainDate.from(day).toZonedDateTime({ timeZone }).toInstant();
}
function dayEnd(day: string, timeZone: string): Temporal.Instant {
  return Temporal.PlainDate.from(day).add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant().subtract({
    milliseconds: 1,
  });
}

/** The filters and sort of the address as the API reads them; the export takes exactly these. */
export function auditLogFilterQuery(
  search: AuditLogSearch,
  timeZone = Temporal.Now.timeZoneId(),
): AuditLogFilterQuery {
  return {
    sort: formatSort(auditLogSortOf(search)),
    ...(search.from ? { from: dayStart(search.from, timeZone).toString() } : {}),
    ...(search.to ? { to: dayEnd(search.to, timeZone).toString() } : {}),
    ...(search.action ? { action: search.action } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.resource_type ? { resource_type: search.resource_type } : {}),
    ...(search.user ? { user: search.user } : {}),
    ...(search.account ? { account_id: search.account } : {}),
  };
}

/** One page of the log, 20 events (P-11); the loader and the page build the same key with it. */
export function auditLogListQuery(search: AuditLogSearch): AuditLogListQuery {
  return { ...pageQuery(search.page ?? 1, PAGE_SIZE), ...auditLogFilterQuery(search) };
}
