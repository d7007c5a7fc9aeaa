import { queryOptions } from '@tanstack/react-query';
import { apiPaths, UI_API_V1 } from '../../../contract/paths.ts';
import { accountLicenceListSchema, licenceHistoryListSchema } from '../../../contract/schemas/licences.ts';
import { apiRequest } from '../../lib/api-client.ts';
import type { StaleAfterChange } from '../../lib/stale-after-change.ts';

/** The rail's request (J-41): the ten latest changes, newest first. */
export const RECENT_HISTORY = { limit: '10', offset: '0', sort: 'timestamp:desc' } as const;

/** Licence queries, by account: a change of one application's allocations makes all of them stale. */
export const licenceKeys = {
  all: () => ['licences'] as const,
  ofAccount: (accountId: string) => [...licenceKeys.all(), accountId] as const,
  sections: (accountId: string) => [...licenceKeys.ofAccount(accountId), 'sections'] as const,
  recent: (accountId: string, timezone: string) =>
    [...licenceKeys.ofAccount(accountId), 'history', timezone] as const,
  details: (accountId: string, timezone: string) =>
    [...licenceKeys.ofAccount(accountId), 'history-details', timezone] as const,
};

/**
 * What a licence change (account/{id}/license/{app}) makes stale (the app adds the accounts, whose
 * applications follow their allocations).
 */
export const licencesStaleAfter: StaleAfterChange = {
  paths: `${UI_API_V1}/account/`,
  queryKeys: [licenceKeys.all()],
};

/** Every licence section of the account the viewer may see (J-01, J-06); edits read it fresh. */
export function accountLicencesQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: licenceKeys.sections(accountId),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.licence.ofAccount(accountId), { schema: accountLicenceListSchema, signal }),
  });
}

/** The rail's recent changes, dated in the browser's zone (J-41). */
export function recentLicenceHistoryQueryOptions(accountId: string, timezone: string) {
  return queryOptions({
    queryKey: licenceKeys.recent(accountId, timezone),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.licence.history(accountId), {
        query: { ...RECENT_HISTORY, timezone },
        schema: licenceHistoryListSchema,
        signal,
      }),
  });
}

/** Every change, oldest first: the full history, the file and the charts. */
export function licenceHistoryDetailsQueryOptions(accountId: string, timezone: string) {
  return queryOptions({
    queryKey: licenceKeys.details(accountId, timezone),
    queryFn: ({ signal }) =>
      apiRequest('GET', apiPaths.licence.historyDetails(accountId), {
        query: { timezone },
        schema: licenceHistoryListSchema,
        signal,
      }),
  });
}
