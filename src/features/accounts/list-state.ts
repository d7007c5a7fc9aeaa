import { useState } from 'react';
import * as v from 'valibot';
import { ACCOUNTS_TABLE_DEFAULT_LIMIT } from '../../../contract/constants.ts';
import type { FeatureFlag } from '../../../contract/feature-flags.ts';
import type { AccessScope } from '../../../contract/permissions.ts';
import { MAX_ENDS_WITHIN_DAYS, type TenantListQueryInput } from '../../../contract/schemas/tenants.ts';
import {
  formatSort,
  type SortOrder,
  TENANT_SORT_COLUMNS,
  type TenantSortColumn,
} from '../../../contract/sort-columns.ts';
import { isCalendarDate } from '../../../contract/validation.ts';
import { pageQuery, TEXT_FILTER_MAX_LENGTH } from '../../components/list/list-search.ts';
import { profileQueryOptions } from '../../lib/current-user.ts';
import { featureFlagsFrom, featureFlagsQueryOptions } from '../../lib/feature-flags.ts';
import type { ScreenData } from '../../lib/query-client.ts';
import { readStoredJson, USER_STORAGE_KEYS, userStorageKey, writeStoredJson } from '../../lib/storage.ts';
import { accountListQueryOptions } from './queries.ts';

export const STATUS_FILTERS = ['active', 'inactive', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const TYPE_FILTERS = ['all', 'standard', 'partner'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

/** The end-date filter: none, "ends within N days from today", or a range (either end may be open). */
export type EndDateFilter =
  | { kind: 'any' }
  | { kind: 'within'; days: number }
  | { kind: 'range'; from: string; to: string };
export type EndDateFilterKind = EndDateFilter['kind'];

export interface AccountListFilters {
  name: string;
  friendlyIdentifier: string;
  partnerAccountName: string;
  status: StatusFilter;
  type: TypeFilter;
  endDate: EndDateFilter;
}

/** What the list remembers for each user between visits (F-20). */
export interface AccountListPreferences {
  filters: AccountListFilters;
  sort: SortOrder<TenantSortColumn>;
}

/** Active accounts only, nothing else (F-19). */
export const DEFAULT_ACCOUNT_FILTERS: AccountListFilters = {
  name: '',
  friendlyIdentifier: '',
  partnerAccountName: '',
  status: 'active',
  type: 'all',
  endDate: { kind: 'any' },
};
/** Name ascending (F-18). */
export const DEFAULT_ACCOUNT_SORT: SortOrder<TenantSortColumn> = { column: 'name', direction: 'asc' };
const DEFAULT_PREFERENCES: AccountListPreferences = {
  filters: DEFAULT_ACCOUNT_FILTERS,
  sort: DEFAULT_ACCOUNT_SORT,
};

/** Whether the filters show what a first visit shows; blank text filters filter nothing. */
export function isDefaultFilters(filters: AccountListFilters): boolean {
  return (
    filters.name.trim() === '' &&
    filters.friendlyIdentifier.trim() === '' &&
    filters.partnerAccountName.trim() === '' &&
    filters.status === DEFAULT_ACCOUNT_FILTERS.status &&
    filters.type === DEFAULT_ACCOUNT_FILTERS.type &&
    filters.endDate.kind === DEFAULT_ACCOUNT_FILTERS.endDate.kind
  );
}

export const DEFAULT_ENDS_WITHIN_DAYS = 30;

/** Which optional columns the viewer sees (F-11, F-13, F-17). */
export interface AccountListColumns {
  /** Type and partner account name. */
  partner: boolean;
  /** Federation status and federated account id. */
  federation: boolean;
}

export function accountListColumns(
  scope: AccessScope,
  featureFlags: Readonly<Record<FeatureFlag, boolean>>,
): AccountListColumns {
  return {
    partner: featureFlags.partner_accounts && (scope === 'system' || scope === 'partner'),
    federation: featureFlags.federated_info,
  };
}

const PARTNER_SORT_COLUMNS: ReadonlySet<TenantSortColumn> = new Set(['type', 'partner_account_name']);

/**
 * The sort actually applied: a stored sort on a column the viewer no longer sees (the partner flag
 * was switched off) falls back to the default instead of ordering by something invisible.
 */
export function effectiveSort(
  sort: SortOrder<TenantSortColumn>,
  columns: AccountListColumns,
): SortOrder<TenantSortColumn> {
  return !columns.partner && PARTNER_SORT_COLUMNS.has(sort.column) ? DEFAULT_ACCOUNT_SORT : sort;
}

function textFilter(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Sort and filters as GET tenants and GET tenants/export take them (F-37, F-38). Filters of hidden
 * columns are not sent, so a preference stored while they were visible cannot narrow the list unseen.
 */
export function accountFilterQuery(
  preferences: AccountListPreferences,
  columns: AccountListColumns,
): Omit<TenantListQueryInput, 'limit' | 'offset'> {
  const { filters } = preferences;
  const { endDate } = filters;
  return {
    sort: formatSort(effectiveSort(preferences.sort, columns)),
    active: filters.status === 'all' ? undefined : filters.status === 'active' ? 'true' : 'false',
    endsWithinDays: endDate.kind === 'within' ? String(endDate.days) : undefined,
    endDateFrom: endDate.kind === 'range' && endDate.from !== '' ? endDate.from : undefined,
    endDateTo: endDate.kind === 'range' && endDate.to !== '' ? endDate.to : undefined,
    name: textFilter(filters.name),
    friendly_identifier: textFilter(filters.friendlyIdentifier),
    type: columns.partner && filters.type !== 'all' ? filters.type : undefined,
    partnerAccountNameLike: columns.partner ? textFilter(filters.partnerAccountName) : undefined,
  };
}

/** One page of the list: limit 10, offset from the 1-based page (F-39). */
export function accountListQuery(
  preferences: AccountListPreferences,
  columns: AccountListColumns,
  page: number,
): TenantListQueryInput {
  return { ...pageQuery(page, ACCOUNTS_TABLE_DEFAULT_LIMIT), ...accountFilterQuery(preferences, columns) };
}

const storedText = v.fallback(v.pipe(v.string(), v.maxLength(TEXT_FILTER_MAX_LENGTH)), '');
const storedDate = v.union([v.literal(''), v.pipe(v.string(), v.check(isCalendarDate))]);

/** Each part falls back on its own, so one unreadable value does not discard the others. */
const storedPreferencesSchema = v.object({
  filters: v.fallback(
    v.object({
      name: storedText,
      friendlyIdentifier: storedText,
      partnerAccountName: storedText,
      status: v.fallback(v.picklist(STATUS_FILTERS), DEFAULT_ACCOUNT_FILTERS.status),
      type: v.fallback(v.picklist(TYPE_FILTERS), DEFAULT_ACCOUNT_FILTERS.type),
      endDate: v.fallback(
        v.variant('kind', [
          v.object({ kind: v.literal('any') }),
          v.object({
            kind: v.literal('within'),
            days: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_ENDS_WITHIN_DAYS)),
          }),
          v.object({ kind: v.literal('range'), from: storedDate, to: storedDate }),
        ]),
        DEFAULT_ACCOUNT_FILTERS.endDate,
      ),
    }),
    DEFAULT_ACCOUNT_FILTERS,
  ),
  sort: v.fallback(
    v.object({ column: v.picklist(TENANT_SORT_COLUMNS), direction: v.picklist(['asc', 'desc']) }),
    DEFAULT_ACCOUNT_SORT,
  ),
});

function preferencesKey(userId: string) {
  return userStorageKey(USER_STORAGE_KEYS.accountsList, userId);
}

export function storedAccountListPreferences(userId: string): AccountListPreferences {
  return readStoredJson(preferencesKey(userId), storedPreferencesSchema, DEFAULT_PREFERENCES);
}

/** The user's filters and sort, read from storage once and written back on every change. */
export function useAccountListPreferences(userId: string) {
  const [preferences, setPreferences] = useState(() => storedAccountListPreferences(userId));
  const save = (next: AccountListPreferences) => {
    setPreferences(next);
    writeStoredJson(preferencesKey(userId), next);
  };
  return [preferences, save] as const;
}

/**
 * The route's loader: starts the first page's request with the navigation (or on hover), with the
 * user's stored filters, as soon as the profile and the feature flags have shaped it: beside the
 * permissions (which the secure layout reads), not after them, so that after sign-in the list comes in the same round trip as what
 * the shell needs (docs/decisions/026-start-up-round-trips.md). A viewer without canViewAccount gets
 * the alternative page; the server refuses the list to them, and the answer is never shown. Best
 * effort: the screen asks again for anything that failed here, showing the failure itself.
 */
export async function prefetchAccountList(screenData: ScreenData, page: number): Promise<void> {
  try {
    const profile = await screenData.load(profileQueryOptions());
    const featureFlags = await screenData.load(featureFlagsQueryOptions());
    const columns = accountListColumns(profile.access_scope, featureFlagsFrom(featureFlags));
    const preferences = storedAccountListPreferences(profile.id);
    await screenData.preload(accountListQueryOptions(accountListQuery(preferences, columns, page)));
  } catch {
    // Nothing to do: the secure layout reports a missing profile, the screen any other failure.
  }
}
