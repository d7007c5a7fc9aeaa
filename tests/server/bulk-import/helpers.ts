import { apiPaths } from '../../../contract/paths.ts';
import type { BulkJob, BulkRowList } from '../../../contract/schemas/bulk-import.ts';
import { BULK_USER_CSV_COLUMNS } from '../../../contract/user-csv.ts';
import type { Caller } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';

/** Requests and files of the bulk user-creation suites. */

export interface UploadOptions {
  accountId: string;
  roleIds?: readonly string[];
  fileName?: string;
  contentType?: string;
}

/** POST user/bulk/validate with the file's bytes as the body, as the console sends it. */
export async function upload(
  harness: TestApp,
  caller: Pick<Caller, 'token'>,
  file: string | Uint8Array,
  options: UploadOptions,
): Promise<Response> {
  const query = new URLSearchParams({
    account_id: options.accountId,
    role_ids: (options.roleIds ?? []).join(','),
    file_name: options.fileName ?? 'users.csv',
  });
  return harness.app.request(`${apiPaths.users.bulkValidate}?${query}`, {
    method: 'POST',
    headers: {
      'Content-Type': options.contentType ?? 'text/csv',
      Authorization: `Bearer ${caller.token}`,
    },
    body: new Blob([typeof file === 'string' ? new TextEncoder().encode(file) : new Uint8Array(file)]),
  });
}

/** A dry run expected to be accepted; answers its job. */
export async function validated(
  harness: TestApp,
  caller: Pick<Caller, 'token'>,
  file: string | Uint8Array,
  options: UploadOptions,
): Promise<BulkJob> {
  const response = await upload(harness, caller, file, options);
  if (response.status !== 200)
    throw new Error(`Dry run answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as BulkJob;
}

export interface UserLine {
  first_name?: string;
  last_name?: string;
  email?: string;
  user_name?: string;
  phone?: string;
  locale?: string;
  roles?: string;
}

/** A file of every column with one line per user; `prefix` keeps user names apart between tests. */
export function csvOf(
  users: readonly UserLine[],
  columns: readonly string[] = BULK_USER_CSV_COLUMNS,
): string {
  const lines = users.map((user) =>
    columns.map((column) => (user as Record<string, string | undefined>)[column] ?? '').join(','),
  );
  return `${[columns.join(','), ...lines].join('\r\n')}\r\n`;
}

/** `count` good users named `${prefix}-1` … */
export function goodUsers(prefix: string, count: number): UserLine[] {
  return Array.from({ length: count }, (_, index) => ({
    first_name: 'Ada',
    last_name: `Lovelace ${index + 1}`,
    email: `${prefix}-${index + 1}@example.com`,
    user_name: `${prefix}-${index + 1}`,
  }));
}

export async function rowsOf(
  harness: TestApp,
  caller: Pick<Caller, 'token'>,
  jobId: string,
  query = '',
): Promise<BulkRowList> {
  const response = await harness.app.request(`${apiPaths.users.bulkRows(jobId)}?limit=1000${query}`, {
    headers: { Authorization: `Bearer ${caller.token}` },
  });
  if (response.status !== 200) throw new Error(`Rows answered ${response.status}`);
  return (await response.json()) as BulkRowList;
}
