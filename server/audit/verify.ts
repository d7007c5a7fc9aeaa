import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { GENESIS_HASH } from './event-hash.ts';

export type AuditChainCheck =
  | { ok: true; events: number; head: string }
  | { ok: false; events: number; firstBadSeq: number; firstBadId: string; reason: 'altered' | 'unlinked' };

/** Where a walk starts and stops: after an event already trusted (a checkpoint's head), through a seq. */
export interface ChainSpan {
  after?: { seq: number; hash: string };
  throughSeq?: number;
}

interface ChainSummary {
  events: number;
  first_unlinked: number | null;
  first_altered: number | null;
}

/**
 * Walks the trail in order from the first event, or from the one after `span.after`, through
 * `span.throughSeq` when given, and recomputes every hash: an edited `content` fails its own hash, a
 * removed or reordered row breaks the link of the next one. Truncating the newest rows is only
 * visible against a signed checkpoint (`checkpoints.ts`). `events` counts the events checked, up to
 * and including the first break.
 *
 * The database does the walk in one statement: SHA-256 over `prev_hash`, a line feed and `content`
 * (the rule of `chainHash`), and each row's link to the one before it by `lag` over the `seq` index.
 * Nothing is sent to the server process but the summary, so its memory does not depend on the
 * chain's length; the database orders the narrow (seq, hashes, result) rows within its work memory,
 * spilling to temporary files beyond it. Hashing where the rows are is what makes the walk keep up
 * with raw SHA-256 (decision 023).
 */
export async function verifyAuditChain(db: Kysely<Database>, span: ChainSpan = {}): Promise<AuditChainCheck> {
  const { after, throughSeq } = span;
  const bounds = [
    sql`seq > ${after?.seq ?? 0}`,
    ...(throughSeq === undefined ? [] : [sql`seq <= ${throughSeq}`]),
  ];
  const inSpan = sql<boolean>`${sql.join(bounds, sql` and `)}`;
  // The inner query hashes each row where it is read and hands the window only what the links need;
  // `offset 0` keeps the planner from merging it into the window's input, which would then carry
  // every row's content through the window.
  const { rows } = await sql<ChainSummary>`
    select count(*) as events,
      min(seq) filter (where not linked) as first_unlinked,
      min(seq) filter (where not hashed) as first_altered
    from (
      select seq, hashed,
        prev_hash = coalesce(lag(hash) over (order by seq), ${after?.hash ?? GENESIS_HASH}) as linked
      from (
        select seq, prev_hash, hash,
          hash = encode(sha256(convert_to(prev_hash || chr(10) || content, 'UTF8')), 'hex') as hashed
        from audit_events
        where ${inSpan}
        offset 0
      ) as hashed_rows
    ) as chain`.execute(db);
  const summary = rows[0];
  const events = Number(summary?.events ?? 0);
  const firstUnlinked = summary?.first_unlinked == null ? null : Number(summary.first_unlinked);
  const firstAltered = summary?.first_altered == null ? null : Number(summary.first_altered);

  if (firstUnlinked === null && firstAltered === null) {
    const head = await db
      .selectFrom('audit_events')
      .select('hash')
      .where(inSpan)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return { ok: true, events, head: head?.hash ?? after?.hash ?? GENESIS_HASH };
  }
  // A row both moved and edited is reported as moved, the link being checked first.
  const firstBadSeq = Math.min(
    firstUnlinked ?? Number.POSITIVE_INFINITY,
    firstAltered ?? Number.POSITIVE_INFINITY,
  );
  const [bad, checked] = await Promise.all([
    db.selectFrom('audit_events').select('id').where('seq', '=', firstBadSeq).executeTakeFirstOrThrow(),
    db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('events'))
      .where(inSpan)
      .where('seq', '<=', firstBadSeq)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    ok: false,
    events: Number(checked.events),
    firstBadSeq,
    firstBadId: bad.id,
    reason: firstBadSeq === firstUnlinked ? 'unlinked' : 'altered',
  };
}
