import { type Kysely, sql } from 'kysely';

/**
 * Each audit event stores the canonical JSON its hash covers (`content`), and every other column of
 * the event becomes a stored column the database generates from that text (decision 023). The columns
 * the list filters and sorts on can then never disagree with what the chain proves, and verifying the
 * chain only has to hash `prev_hash`, a line feed and `content`, which the database does itself.
 *
 * The content of the events stored before is computed from their columns by the rules every writer
 * has used since the foundation (`server/audit/event-hash.ts`), so an event edited before this
 * migration still fails its hash after it. Those rules are copied here as they stood: a migration
 * must do the same work on every database, whatever the writers' code becomes later.
 */

const BACKFILL_BATCH = 1000;

/** Every derived column, its type, and how it is read from the content. */
const DERIVED_COLUMNS: readonly { name: string; type: string; expression: string; notNull?: boolean }[] = [
  { name: 'id', type: 'text', expression: `content::jsonb ->> 'id'`, notNull: true },
  {
    name: 'occurred_at',
    type: 'timestamptz',
    expression: `audit_content_instant(content::jsonb ->> 'occurred_at')`,
    notNull: true,
  },
  { name: 'action', type: 'text', expression: `content::jsonb ->> 'action'`, notNull: true },
  { name: 'status', type: 'text', expression: `content::jsonb ->> 'status'`, notNull: true },
  { name: 'resource_type', type: 'text', expression: `content::jsonb ->> 'resource_type'`, notNull: true },
  { name: 'resource_id', type: 'text', expression: `content::jsonb ->> 'resource_id'` },
  { name: 'account_id', type: 'text', expression: `content::jsonb ->> 'account_id'` },
  { name: 'actor_id', type: 'text', expression: `content::jsonb ->> 'actor_id'` },
  { name: 'actor_name', type: 'text', expression: `content::jsonb ->> 'actor_name'` },
  { name: 'ip_address', type: 'text', expression: `content::jsonb ->> 'ip_address'` },
  { name: 'user_agent', type: 'text', expression: `content::jsonb ->> 'user_agent'` },
  { name: 'details', type: 'jsonb', expression: `content::jsonb -> 'details'`, notNull: true },
];

/** An event as stored before this migration: its hashed fields as columns, in the chain's order. */
interface StoredEvent {
  seq: number;
  id: string;
  occurred_at: Date;
  action: string;
  status: string;
  resource_type: string;
  resource_id: string | null;
  account_id: string | null;
  actor_id: string | null;
  actor_name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

/** RFC 8785 JSON of the trail's values: keys sorted at every level, `undefined` members left out. */
function canonicalJsonAsWritten(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJsonAsWritten).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const members = Object.entries(value)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJsonAsWritten(item)}`);
  return `{${members.join(',')}}`;
}

/** The content an event's hash covered: its fields but `seq`, the user agent only when recorded. */
function contentAsWritten({ seq: _seq, occurred_at, user_agent, ...fields }: StoredEvent): string {
  return canonicalJsonAsWritten({
    ...fields,
    occurred_at: occurred_at.toISOString(),
    user_agent: user_agent ?? undefined,
  });
}

async function backfillContent(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  while (true) {
    const { rows } = await sql<StoredEvent>`
      select seq, id, occurred_at, action, status, resource_type, resource_id, account_id, actor_id,
        actor_name, ip_address, user_agent, details
      from audit_events where seq > ${after} order by seq limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) return;
    const values = rows.map((row) => sql`(${row.seq}::bigint, ${contentAsWritten(row)})`);
    await sql`
      update audit_events set content = v.content
      from (values ${sql.join(values)}) as v(seq, content)
      where audit_events.seq = v.seq`.execute(db);
    after = rows[rows.length - 1]?.seq ?? after;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('content', 'text').execute();
  await backfillContent(db);
  await db.schema
    .alterTable('audit_events')
    .alterColumn('content', (col) => col.setNotNull())
    .execute();
  // A cast from text to timestamptz is only "stable" (it reads the session's settings for text without
  // an offset); the content always carries `Z`, so this wrapper may declare what holds for it.
  await sql`
    create function audit_content_instant(value text) returns timestamptz
    language sql immutable parallel safe as $$ select value::timestamptz $$`.execute(db);
  for (const column of DERIVED_COLUMNS) {
    // Dropping the column drops the indexes and the check that used it; they are made again below.
    await sql`alter table audit_events drop column ${sql.ref(column.name)}`.execute(db);
    await sql`
      alter table audit_events add column ${sql.ref(column.name)} ${sql.raw(column.type)}
      generated always as (${sql.raw(column.expression)}) stored
      ${sql.raw(column.notNull ? 'not null' : '')}`.execute(db);
  }
  await sql`alter table audit_events add primary key (id)`.execute(db);
  await sql`alter table audit_events add constraint audit_events_status check (status in ('success', 'failure'))`.execute(
    db,
  );
  await db.schema.createIndex('audit_events_occurred_at').on('audit_events').column('occurred_at').execute();
  await db.schema
    .createIndex('audit_events_account_id')
    .on('audit_events')
    .columns(['account_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audit_events_resource')
    .on('audit_events')
    .columns(['resource_type', 'resource_id'])
    .execute();
  await db.schema
    .createIndex('audit_events_actor_id')
    .on('audit_events')
    .columns(['actor_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The derived columns keep their values as ordinary columns; the text they came from goes.
  for (const column of DERIVED_COLUMNS) {
    await sql`alter table audit_events alter column ${sql.ref(column.name)} drop expression`.execute(db);
  }
  await db.schema.alterTable('audit_events').dropColumn('content').execute();
  await sql`drop function audit_content_instant(text)`.execute(db);
}
