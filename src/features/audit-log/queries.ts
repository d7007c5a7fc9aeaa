import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiPaths, CA_API_V1, UI_API_V1, UI_API_V2 } from '../../../contract/paths.ts';
import {
  auditEventListSchema,
  auditEventSchema,
  auditVerificationSchema,
} from '../../../contract/schemas/audit-log.ts';
import { ALL_ITEMS_LIMIT } from '../../../contract/schemas/common.ts';
import { userListSchema } from '../../../contract/schemas/users.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { apiListRequest } from '../../lib/list-pages.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';
import type { AuditLogListQuery } from './list-search.ts';

/** Audit log queries; which events a caller sees follows its own account reach. */
export const auditLogKeys = {
  all: () => ['audit-log'] as const,
  lists: () => [...auditLogKeys.all(), 'list'] as const,
  list: (query: AuditLogListQuery) => [...auditLogKeys.lists(), query] as const,
  detail: (id: string) => [...auditLogKeys.all(), 'detail', id] as const,
  verification: (id: string) => [...auditLogKeys.detail(id), 'verification'] as const,
  users: (accountId: string | undefined) => [...auditLogKeys.all(), 'users', accountId ?? null] as const,
};

/** Every change that reaches the server is recorded in the audit log, so its lists are behind. */
export const auditLogStaleAfter: StaleAfterChange = {
  paths: new RegExp(`^(?:${UI_API_V1}|${UI_API_V2}|${CA_API_V1})/`),
  queryKeys: [auditLogKeys.lists()],
};

export function auditLogListQueryOptions(query: AuditLogListQuery) {
  return queryOptions({
    queryKey: auditLogKeys.list(query),
    queryFn: ({ signal }) =>
      apiListRequest(apiPaths.auditLog.list, {
        query: { ...query },
        schema: auditEventListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** One event; events never change, so the cached one stays good to read offline. */
export function auditEventQueryOptions(id: string) {
  return queryOptions({
    queryKey: auditLogKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.auditLog.byId(id), { schema: auditEventSchema, signal }),
  });
}

/**
 * Whether the event and the chain up to it are intact. Asked only when the user presses Verify, and
 * asked again on every press: a verification is only worth its moment, so it is neither kept nor stored.
 */
export function auditVerificationQueryOptions(id: string) {
  return queryOptions({
    queryKey: auditLogKeys.verification(id),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.auditLog.verify(id), { schema: auditVerificationSchema, signal }),
    enabled: false,
    staleTime: 0,
    gcTime: 0,
    meta: { persist: false },
  });
}

/** The users the user filter offers, by name: of the chosen account, else of every account the viewer reaches. */
export function auditLogUsersQueryOptions(accountId: string | undefined) {
  return queryOptions({
    queryKey: auditLogKeys.users(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.users.list, {
        query: {
          sort: 'name:asc',
          limit: String(ALL_ITEMS_LIMIT),
          ...(accountId ? { account_id: accountId } : {}),
        },
        schema: userListSchema,
        signal,
      }),
  });
}
