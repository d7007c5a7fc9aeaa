import * as v from 'valibot';
import type { OutboxCommand } from '../../contract/outbox.ts';

const id = v.pipe(v.string(), v.nonEmpty());

/** Messages come from the console's own pages, yet are checked: a malformed one is ignored. */
const outboxCommandSchema = v.variant('type', [
  v.object({ type: v.literal('session'), userId: id, accessToken: id, expiresAt: v.number() }),
  v.object({ type: v.literal('session-ended'), userId: id, keep: v.boolean() }),
  v.object({ type: v.literal('list'), userId: id }),
  v.object({ type: v.literal('sync-now') }),
  v.object({ type: v.literal('discard'), id }),
  v.object({ type: v.literal('reapply'), id }),
  v.object({ type: v.literal('retry'), id, body: v.optional(v.unknown()) }),
  v.object({ type: v.literal('skip-waiting') }),
]);

export function parseOutboxCommand(data: unknown): OutboxCommand | null {
  const parsed = v.safeParse(outboxCommandSchema, data);
  return parsed.success ? (parsed.output as OutboxCommand) : null;
}
