import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import {
  BULK_JOB_ACTIVE_STATES,
  type BulkRowStatus,
  bulkJobSchema,
  bulkRowListSchema,
} from '../../../contract/schemas/bulk-import.ts';
import { PAGE_SIZE } from '../../../contract/schemas/common.ts';
import { tenantListSchema, tenantSchema } from '../../../contract/schemas/tenants.ts';
import { roleListSchema } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/**
 * Bulk user creation's reads (decision 035 §5). A job and its rows hold people's details and make
 * sense only online, so none of them is kept for offline use (`persist: false`).
 */
export const bulkImportKeys = {
  all: () => ['bulk-import'] as const,
  jobs: () => [...bulkImportKeys.all(), 'job'] as const,
  job: (jobId: string) => [...bulkImportKeys.jobs(), jobId] as const,
  rows: (jobId: string) => [...bulkImportKeys.job(jobId), 'rows'] as const,
  rowPage: (jobId: string, status: BulkRowStatus | undefined, page: number) =>
    [...bulkImportKeys.rows(jobId), status ?? 'all', page] as const,
  account: (accountId: string) => [...bulkImportKeys.all(), 'account', accountId] as const,
  accountSearch: (text: string) => [...bulkImportKeys.all(), 'account-search', text] as const,
  roles: (accountId: string) => [...bulkImportKeys.all(), 'roles', accountId] as const,
};

/** What a change of a bulk import makes stale: its jobs (a job the server answered stays as it is). */
export const bulkImportStaleAfter: StaleAfterChange = {
  paths: `${UI_API_V1}/user/bulk`,
  queryKeys: [bulkImportKeys.jobs()],
};

/** How often a running job is asked for its counts. */
export const JOB_POLL_MS = 1000;

export function bulkJobQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: bulkImportKeys.job(jobId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.bulkJob(jobId), { schema: bulkJobSchema, signal }),
    meta: { persist: false },
    refetchInterval: (query) =>
      query.state.data && BULK_JOB_ACTIVE_STATES.includes(query.state.data.state) ? JOB_POLL_MS : false,
  });
}

export function bulkRowsQueryOptions(jobId: string, status: BulkRowStatus | undefined, page: number) {
  return queryOptions({
    queryKey: bulkImportKeys.rowPage(jobId, status, page),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.bulkRows(jobId), {
        query: { status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
        schema: bulkRowListSchema,
        signal,
      }),
    meta: { persist: false },
    placeholderData: keepPreviousData,
  });
}

/** The account the users join, by id: its name for the page. */
export function bulkAccountQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: bulkImportKeys.account(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.tenants.byId(accountId), { schema: tenantSchema, signal }),
    meta: { persist: false },
  });
}

/** Accounts whose name holds `text`, for choosing another account. */
export function bulkAccountSearchQueryOptions(text: string) {
  return queryOptions({
    queryKey: bulkImportKeys.accountSearch(text),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.tenants.list, {
        query: { name: text, active: 'true', limit: 10, sort: 'name:asc' },
        schema: tenantListSchema,
        signal,
      }),
    meta: { persist: false },
    enabled: text.trim() !== '',
    placeholderData: keepPreviousData,
  });
}

/** The roles a user of the account may hold: built-in ones and, with the roles feature, its own. */
export function bulkRolesQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: bulkImportKeys.roles(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.roles.list, {
        query: { account_id: accountId, status: 'active', limit: 200, sort: 'name:asc' },
        schema: roleListSchema,
        signal,
      }),
    meta: { persist: false },
  });
}
