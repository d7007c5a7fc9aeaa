import { useState } from 'react';
import * as v from 'valibot';
import { readStoredJson, USER_STORAGE_KEYS, userStorageKey, writeStoredJson } from '../../lib/storage.ts';

/**
 * The log's columns the user may hide; the time always shows, as it opens the event. A column chooser
 * is a set of visible columns kept with the user's list preferences (decision 016).
 */
export const AUDIT_LOG_COLUMNS = ['action', 'status', 'resource', 'user', 'account', 'address'] as const;
export type AuditLogColumn = (typeof AUDIT_LOG_COLUMNS)[number];

/** Everything but the client address, which matters when a sign-in is questioned. */
export const DEFAULT_AUDIT_LOG_COLUMNS: readonly AuditLogColumn[] = [
  'action',
  'status',
  'resource',
  'user',
  'account',
];

const storedColumnsSchema = v.array(v.picklist(AUDIT_LOG_COLUMNS));

function columnsKey(userId: string) {
  return userStorageKey(USER_STORAGE_KEYS.auditLogColumns, userId);
}

/** The columns the user shows, read from storage once and written back on every change. */
export function useAuditLogColumns(userId: string) {
  const [columns, setColumns] = useState<readonly AuditLogColumn[]>(() =>
    readStoredJson(columnsKey(userId), storedColumnsSchema, [...DEFAULT_AUDIT_LOG_COLUMNS]),
  );
  const showColumn = (column: AuditLogColumn, shown: boolean) => {
    // Kept in the table's order whatever order they were ticked in.
    const next = AUDIT_LOG_COLUMNS.filter((each) => (each === column ? shown : columns.includes(each)));
    setColumns(next);
    writeStoredJson(columnsKey(userId), next);
  };
  return [columns, showColumn] as const;
}
