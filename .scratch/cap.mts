import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { listTenants } from '../server/accounts/list.ts';
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/lists_scratch', max: 2 });
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: (e) => { if (e.level === 'query') console.log(e.query.sql, JSON.stringify(e.query.parameters), e.queryDurationMillis); } });
const principal = { userId: 'b', userName: 'b', accessScope: 'system', primaryAccountId: 'b', credential: { kind: 'session', sessionId: 'b' }, permissions: new Set() } as any;
await listTenants(db, principal, {}, { limit: 10, offset: 900000, after: { position: 900000, id: 'bench-account-5000' }, sort: { column: 'name', direction: 'asc' } }, '2026-11-25');
await listTenants(db, principal, {}, { limit: 10, offset: 900000, after: { position: 900000, id: 'bench-account-5000' }, sort: { column: 'name', direction: 'asc' } }, '2026-11-25');
await db.destroy();
