import * as v from 'valibot';
import { pageSearch } from '../../components/list/list-search.ts';

/**
 * The bulk page's address (decision 039 §1, §4): the job being checked or run, so a reload
 * resumes watching it; whether invitations are sent (off only when unticked); the rows filter and
 * page of the check step. The step itself is the hash, `#step=n`.
 */
export const bulkSearchSchema = v.object({
  job: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))), undefined),
  invitations: v.fallback(v.optional(v.picklist(['off'])), undefined),
  rows: v.fallback(v.optional(v.picklist(['invalid'])), undefined),
  page: pageSearch,
});
export type BulkSearch = v.InferOutput<typeof bulkSearchSchema>;

/** The step asked for by `#step=n`; 1 when absent or unreadable. */
export function stepOfHash(hash: string): number {
  const step = Number(/(?:^|&)step=(\d)(?:&|$)/.exec(hash.replace(/^#/, ''))?.[1] ?? '1');
  return step >= 1 && step <= 3 ? step : 1;
}
