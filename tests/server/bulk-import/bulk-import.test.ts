import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PERMISSION_NAMES } from '../../../contract/permissions.ts';
import type { BulkJob } from '../../../contract/schemas/bulk-import.ts';
import { BULK_REPORT_CSV_COLUMNS } from '../../../contract/user-csv.ts';
import { purgeExpiredJobs } from '../../../server/bulk-import/repository.ts';
import { type BulkImportRunner, createBulkImportRunner } from '../../../server/bulk-import/runner.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from '../users/helpers.ts';
import { csvOf, goodUsers, rowsOf, upload, validated } from './helpers.ts';

/**
 * Bulk creation of users from CSV (decision 035 §5, decision 038, decision 018 slice 7): every bad input of the file and
 * of its rows, the job run one transaction per row, resumption after a runner stops between rows
 * without a duplicate, cancelling, the report in its creator's language, and that only the creator
 * ever reads or acts on a job (G10, escalations 9 and 10).
 */

let clock = new Date('2026-03-10T12:00:00Z');
let harness: TestApp;
let admin: Caller;
let accountA: string;
let accountForeign: string;
let roleIds: Awaited<ReturnType<typeof ensureBuiltInRoles>>;
let customRole: string;
let foreignRole: string;

function runner(): BulkImportRunner {
  return createBulkImportRunner({
    db: harness.deps.db,
    now: () => clock,
    log: { error: () => {}, warn: () => {} },
  });
}

async function start(job: BulkJob, caller: Caller = admin, sendInvitations = true): Promise<Response> {
  return call(harness, 'POST', apiPaths.users.bulk, {
    token: caller.token,
    body: { job_id: job.id, send_invitations: sendInvitations },
  });
}

async function jobNow(job: BulkJob, caller: Caller = admin): Promise<BulkJob> {
  const response = await call(harness, 'GET', apiPaths.users.bulkJob(job.id), { token: caller.token });
  expect(response.status).toBe(200);
  return (await response.json()) as BulkJob;
}

async function usersNamed(prefix: string) {
  return harness.deps.db
    .selectFrom('users')
    .select(['id', 'user_name', 'created_by', 'email_verified_at', 'phone', 'locale', 'access_scope'])
    .where('user_name_key', 'like', `${prefix.toLowerCase()}-%`)
    .execute();
}

beforeAll(async () => {
  harness = await createTestApp({ now: () => clock });
  await harness.installLicence();
  admin = await signedInUser(harness, { accessScope: 'system' });
  accountA = await insertAccount(harness, { name: 'Bulk A' });
  const partnerQ = await insertAccount(harness, { name: 'Partner Q', type: 'partner' });
  accountForeign = await insertAccount(harness, { name: 'Bulk foreign', partnerAccountId: partnerQ });
  roleIds = await ensureBuiltInRoles(harness.deps.db, clock);
  customRole = await insertCustomRole(harness, accountA, ['VIEW_USER'], 'Helpdesk');
  foreignRole = await insertCustomRole(harness, accountForeign, ['VIEW_USER'], 'Foreign desk');
});
afterAll(() => harness.close());

describe('a good file', () => {
  it('is checked, started, created one user per row with roles, trail and invitation, and reported', async () => {
    const file = csvOf([
      {
        ...goodUsers('good', 1)[0],
        phone: '+49 (30) 1234-567',
        locale: 'de_DE',
        roles: 'Helpdesk|Read-only auditor',
      },
      { ...goodUsers('good', 2)[1] },
      { ...goodUsers('good', 3)[2], roles: 'account administrator' },
    ]);
    const job = await validated(harness, admin, file, {
      accountId: accountA,
      roleIds: [roleIds.account_administrator],
      fileName: 'people.csv',
    });
    expect(job).toMatchObject({
      state: 'validated',
      file_name: 'people.csv',
      total: 3,
      valid: 3,
      invalid: 0,
    });
    const rows = await rowsOf(harness, admin, job.id);
    expect(rows.items.map((row) => [row.row, row.line, row.status])).toEqual([
      [1, 2, 'valid'],
      [2, 3, 'valid'],
      [3, 4, 'valid'],
    ]);
    expect(await usersNamed('good')).toEqual([]);

    const started = await start(job);
    expect(started.status).toBe(202);
    expect(started.headers.get('Location')).toBe(apiPaths.users.bulkJob(job.id));
    expect(((await started.json()) as BulkJob).state).toBe('queued');
    await runner().drain();

    expect(await jobNow(job)).toMatchObject({ state: 'finished', processed: 3, created: 3, failed: 0 });
    const users = await usersNamed('good');
    expect(users).toHaveLength(3);
    for (const user of users) {
      expect(user).toMatchObject({ created_by: admin.id, email_verified_at: null, access_scope: 'account' });
    }
    const first = users.find((user) => user.user_name === 'good-1');
    expect(first).toMatchObject({ phone: '+49301234567', locale: 'de_DE' });
    const roles = await harness.deps.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('roles.name')
      .where('user_roles.user_id', '=', first?.id ?? '')
      .orderBy('roles.name')
      .execute();
    expect(roles.map((role) => role.name)).toEqual(['Helpdesk', 'Read-only auditor']);

    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['actor_id', 'resource_id', 'details', 'account_id'])
      .where('action', '=', 'CREATE')
      .where('resource_type', '=', 'USER')
      .where(
        'resource_id',
        'in',
        users.map((user) => user.id),
      )
      .execute();
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event.actor_id).toBe(admin.id);
      expect(event.account_id).toBe(accountA);
      expect(event.details).toMatchObject({ bulk_job_id: job.id, access_scope: 'account' });
    }
    const mail = await harness.deps.db
      .selectFrom('mail_outbox')
      .select(['kind', 'to_address', 'requested_by'])
      .where(
        'user_id',
        'in',
        users.map((user) => user.id),
      )
      .execute();
    expect(mail).toHaveLength(3);
    expect(mail.every((row) => row.kind === 'invitation' && row.requested_by === admin.id)).toBe(true);

    const report = await call(harness, 'GET', apiPaths.users.bulkReport(job.id), { token: admin.token });
    expect(report.status).toBe(200);
    expect(report.headers.get('Content-Type')).toMatch(/^text\/csv/);
    const [header, ...lines] = parse(await report.text()) as string[][];
    expect(header).toEqual([...BULK_REPORT_CSV_COLUMNS]);
    expect(
      lines.map((line) => [
        line[0],
        line[2],
        line[6],
        line[8] === users.find((u) => u.user_name === line[2])?.id,
      ]),
    ).toEqual([
      ['1', 'good-1', 'created', true],
      ['2', 'good-2', 'created', true],
      ['3', 'good-3', 'created', true],
    ]);
  });

  it('reads a semicolon-separated file with a BOM, header names in any case and order', async () => {
    const text = '\uFEFFUser_Name ; EMAIL;last_name;First_Name\r\nsemi-1;semi-1@example.com;Curie;Marie\r\n';
    const job = await validated(harness, admin, text, {
      accountId: accountA,
      roleIds: [roleIds.account_administrator],
    });
    expect(job).toMatchObject({ total: 1, valid: 1 });
    const [row] = (await rowsOf(harness, admin, job.id)).items;
    expect(row?.cells).toEqual({
      user_name: 'semi-1',
      email: 'semi-1@example.com',
      last_name: 'Curie',
      first_name: 'Marie',
    });
  });

  it('sends no invitation when the creator unticks it', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('quiet', 2)), {
      accountId: accountA,
      roleIds: [roleIds.account_administrator],
    });
    expect((await start(job, admin, false)).status).toBe(202);
    await runner().drain();
    const users = await usersNamed('quiet');
    expect(users).toHaveLength(2);
    const mail = await harness.deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where(
        'user_id',
        'in',
        users.map((user) => user.id),
      )
      .execute();
    expect(mail).toEqual([]);
  });
});

describe('files refused as a whole, with nothing stored', () => {
  const defaults = () => ({ accountId: accountA, roleIds: [roleIds.account_administrator] });
  const cases: [string, string | Uint8Array, string, string][] = [
    ['a missing column', 'first_name,last_name,user_name\r\nA,B,c\r\n', 'file.email', 'missingColumn'],
    [
      'an extra column',
      'first_name,last_name,email,user_name,department\r\nA,B,a@example.com,c,Sales\r\n',
      'file.department',
      'unknownColumn',
    ],
    [
      'a column named twice',
      'first_name,last_name,email,user_name,email\r\nA,B,a@example.com,c,b@example.com\r\n',
      'file.email',
      'unknownColumn',
    ],
    [
      'a file that is not UTF-8 (Latin-1)',
      new Uint8Array([
        ...new TextEncoder().encode('first_name,last_name,email,user_name\r\nJ'),
        0xfc,
        ...new TextEncoder().encode('rgen,M,j@example.com,jm\r\n'),
      ]),
      'file',
      'notUtf8',
    ],
    ['an empty file', '', 'file', 'emptyFile'],
    ['a header without rows', 'first_name,last_name,email,user_name\r\n,,,\r\n', 'file', 'emptyFile'],
    [
      'an unclosed quote, with its line',
      'first_name,last_name,email,user_name\r\nA,B,a@example.com,a\r\nA,"B,b@example.com,b\r\nC,D,c@example.com,c\r\n',
      'file.line.3',
      'malformedCsv',
    ],
    [
      'a stray quote inside a cell, with its line',
      'first_name,last_name,email,user_name\r\nA,B,a@example.com,a\r\nA,B"x,b@example.com,b\r\n',
      'file.line.3',
      'malformedCsv',
    ],
    [
      'a NUL byte in a cell, with its row and column',
      'first_name,last_name,email,user_name\r\nA,B,a@example.com,a\r\nC,D\u0000,c@example.com,c\r\n',
      'file.row.2.last_name',
      'controlCharacter',
    ],
    [
      'an escape character in a quoted cell, with its row and column',
      'first_name,last_name,email,user_name\r\nA,B,"a\u001b@example.com",a\r\n',
      'file.row.1.email',
      'controlCharacter',
    ],
  ];
  it.each(cases)('refuses %s', async (_name, file, field, code) => {
    const before = await harness.deps.db.selectFrom('bulk_import_jobs').select('id').execute();
    const response = await upload(harness, admin, file, defaults());
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ status: 400, field, code });
    expect(await harness.deps.db.selectFrom('bulk_import_jobs').select('id').execute()).toHaveLength(
      before.length,
    );
  });

  it('takes 10,000 rows in a file above the 1 MiB of other bodies, and refuses 10,001', async () => {
    // Long names make the file larger than the general body limit: this path's own limit is 4 MiB.
    const many = goodUsers('many', 10_001).map((user) => ({ ...user, first_name: `Ada ${'x'.repeat(90)}` }));
    expect(csvOf(many.slice(0, 10_000)).length).toBeGreaterThan(1024 * 1024);
    const refused = await upload(harness, admin, csvOf(many), defaults());
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ field: 'file', code: 'tooManyRows' });
    const job = await validated(harness, admin, csvOf(many.slice(0, 10_000)), defaults());
    expect(job).toMatchObject({ total: 10_000, valid: 10_000 });
  }, 120_000);

  it('refuses another media type (415) and a body above 4 MiB (413)', async () => {
    const json = await upload(harness, admin, '{}', { ...defaults(), contentType: 'application/json' });
    expect(json.status).toBe(415);
    const huge = await upload(harness, admin, `first_name\r\n${'x'.repeat(4 * 1024 * 1024)}\r\n`, defaults());
    expect(huge.status).toBe(413);
    expect((await errorOf(huge)).code).toBe('tooLarge');
  });

  it('checks the account before reading the file: 404 out of reach, 403 without the permission', async () => {
    const partner = await signedInUser(harness, {
      accessScope: 'partner',
      accountId: await insertAccount(harness, { type: 'partner' }),
    });
    // The file is not UTF-8: a 400 would mean it was read.
    const notUtf8 = new Uint8Array([0xff, 0xfe, 0x00]);
    const foreign = await upload(harness, partner, notUtf8, { accountId: accountForeign });
    expect(foreign.status).toBe(404);
    const auditor = await signedInUser(harness, {
      accessScope: 'account',
      accountId: accountA,
      roles: ['read_only_auditor'],
    });
    const forbidden = await upload(harness, auditor, notUtf8, { accountId: accountA });
    expect(forbidden.status).toBe(403);
  });

  it('refuses default roles out of reach (404), stronger than the caller (403) or not fitting (400)', async () => {
    const accountAdmin = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
    const file = csvOf(goodUsers('defaults', 1));
    const foreign = await upload(harness, accountAdmin, file, {
      accountId: accountA,
      roleIds: [foreignRole],
    });
    expect(foreign.status).toBe(404);
    expect((await errorOf(foreign)).field).toBe('role_ids');
    const strong = await insertCustomRole(harness, accountA, PERMISSION_NAMES, 'Everything');
    const stronger = await upload(harness, accountAdmin, file, { accountId: accountA, roleIds: [strong] });
    expect(stronger.status).toBe(403);
    expect(await errorOf(stronger)).toMatchObject({ field: 'role_ids', code: 'permissionNotHeld' });
    const notFitting = await upload(harness, admin, file, {
      accountId: accountA,
      roleIds: [roleIds.system_administrator],
    });
    expect(notFitting.status).toBe(400);
    expect(await errorOf(notFitting)).toMatchObject({ field: 'role_ids', code: 'roleNotForUser' });
  });
});

describe('rows refused one by one, naming row and column', () => {
  it('stores each bad row invalid with every reason and keeps the good ones', async () => {
    await insertTestUser(harness, { accountId: accountA, userName: 'Taken-Name' });
    const file = [
      'first_name,last_name,email,user_name,phone,locale,roles',
      'Good,One,rows-1@example.com,rows-1,+44 20 7946 0000,,', // 1: good, phone with +
      'Short,Row,rows-2@example.com', // 2: wrong cell count
      'Dup,Licate,rows-3@example.com,ROWS-1,,,', // 3: duplicate of row 1
      'In,Use,rows-4@example.com,taken-name,,,', // 4: taken on the platform
      '"=HYPERLINK(""x"")",Formula,rows-5@example.com,rows-5,,,', // 5: formula
      'At,Sign,rows-6@example.com,rows-6,,,@SUM(A1)', // 6: formula in roles
      'Bad,Email,not-an-address,rows-7,,xx_XX,', // 7: e-mail and language
      'Unknown,Role,rows-8@example.com,rows-8,,,No such role', // 8: unknown role
      'Foreign,Role,rows-9@example.com,rows-9,,,Foreign desk', // 9: another account's role: same code
      'System,Role,rows-10@example.com,rows-10,,,System administrator', // 10: does not fit
      '"Quoted, Name",Ok,rows-11@example.com,rows-11,,,Helpdesk', // 11: good
      '\tTab,Hidden,rows-12@example.com,rows-12,,,', // 12: hidden formula
      '-Minus,Sign,rows-13@example.com,rows-13,-1,,', // 13: formula in name and phone
    ].join('\n');
    const job = await validated(harness, admin, `${file}\n`, {
      accountId: accountA,
      roleIds: [roleIds.account_administrator],
    });
    expect(job).toMatchObject({ total: 13, valid: 2, invalid: 11 });
    const invalid = await rowsOf(harness, admin, job.id, '&status=invalid');
    expect(invalid.total).toBe(11);
    const reasons = Object.fromEntries(invalid.items.map((row) => [row.row, row.errors]));
    expect(reasons).toEqual({
      2: [
        { column: 'row', code: 'wrongCellCount' },
        { column: 'user_name', code: 'requiredUserName' },
      ],
      3: [{ column: 'user_name', code: 'duplicateInFile', first_row: 1 }],
      4: [{ column: 'user_name', code: 'inUse' }],
      5: [{ column: 'first_name', code: 'formulaCell' }],
      6: [{ column: 'roles', code: 'formulaCell' }],
      7: [
        { column: 'email', code: 'invalidEmail' },
        { column: 'locale', code: 'invalidLocale' },
      ],
      8: [{ column: 'roles', code: 'unknownRole' }],
      9: [{ column: 'roles', code: 'unknownRole' }],
      10: [{ column: 'roles', code: 'roleNotForUser' }],
      12: [{ column: 'first_name', code: 'formulaCell' }],
      13: [
        { column: 'first_name', code: 'formulaCell' },
        { column: 'phone', code: 'formulaCell' },
      ],
    });
    expect(invalid.items.find((row) => row.row === 2)?.line).toBe(3);

    // Only the valid rows are created; the report names every row's outcome and reasons.
    expect((await start(job)).status).toBe(202);
    await runner().drain();
    expect(await jobNow(job)).toMatchObject({ state: 'finished', created: 2, failed: 0, processed: 2 });
    expect((await usersNamed('rows')).map((user) => user.user_name).sort()).toEqual(['rows-1', 'rows-11']);
    const report = await call(harness, 'GET', apiPaths.users.bulkReport(job.id), { token: admin.token });
    const [, ...lines] = parse(await report.text()) as string[][];
    expect(lines).toHaveLength(13);
    const third = lines.find((line) => line[0] === '3');
    expect(third?.[6]).toBe('invalid');
    expect(third?.[7]).toBe('user_name: Row 1 of the file already has this user name. [duplicateInFile]');
    // The formula is defused by the writer, never written as a formula.
    expect(lines.find((line) => line[0] === '5')?.[4]).toBe('\'=HYPERLINK("x")');
  });

  it('gives a foreign or an unknown role the same code, so a file cannot probe other accounts', async () => {
    const accountAdmin = await signedInUser(harness, { accessScope: 'account', accountId: accountA });
    const job = await validated(
      harness,
      accountAdmin,
      csvOf([
        { ...goodUsers('probe', 1)[0], roles: 'Foreign desk' },
        { ...goodUsers('probe', 2)[1], roles: 'Nobody has this' },
        { ...goodUsers('probe', 3)[2], roles: 'Everything' },
      ]),
      { accountId: accountA },
    );
    const rows = await rowsOf(harness, accountAdmin, job.id);
    expect(rows.items.map((row) => row.errors)).toEqual([
      [{ column: 'roles', code: 'unknownRole' }],
      [{ column: 'roles', code: 'unknownRole' }],
      [{ column: 'roles', code: 'permissionNotHeld' }],
    ]);
  });

  it('asks for roles when a row names none and the page chose none', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('noroles', 1)), { accountId: accountA });
    const [row] = (await rowsOf(harness, admin, job.id)).items;
    expect(row?.errors).toEqual([{ column: 'roles', code: 'required' }]);
  });
});

describe('the job', () => {
  const defaults = () => ({ accountId: accountA, roleIds: [roleIds.account_administrator] });

  it('resumes after a runner stops between two rows, creating nobody twice', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('resume', 10)), defaults());
    expect((await start(job)).status).toBe(202);
    const first = runner();
    expect(await first.runNext({ maxRows: 4 })).toBe(true);
    expect(await jobNow(job)).toMatchObject({ state: 'running', processed: 4, created: 4 });
    // The lease still runs: no other runner takes the job.
    expect(await runner().runNext()).toBe(false);
    clock = new Date(clock.getTime() + 61_000);
    await runner().drain();
    expect(await jobNow(job)).toMatchObject({ state: 'finished', processed: 10, created: 10, failed: 0 });
    const users = await usersNamed('resume');
    expect(users).toHaveLength(10);
    const audit = await harness.deps.db
      .selectFrom('audit_events')
      .select('resource_id')
      .where('action', '=', 'CREATE')
      .where(
        'resource_id',
        'in',
        users.map((user) => user.id),
      )
      .execute();
    expect(audit).toHaveLength(10);
    const rows = await rowsOf(harness, admin, job.id);
    expect(new Set(rows.items.map((row) => row.user_id)).size).toBe(10);
  });

  it('rolls a row back whole when it breaks mid-transaction, retries it three times, then reports it', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('boom', 3)), defaults());
    // The user's insert fails after the row was locked: as a process dying mid-row, nothing of it stays.
    await sql`create function refuse_boom() returns trigger language plpgsql as $$
      begin
        if new.user_name = 'boom-2' then raise exception 'simulated failure'; end if;
        return new;
      end $$`.execute(harness.deps.db);
    await sql`create trigger refuse_boom before insert on users for each row execute function refuse_boom()`.execute(
      harness.deps.db,
    );
    try {
      await start(job);
      await runner().drain();
    } finally {
      await sql`drop trigger refuse_boom on users`.execute(harness.deps.db);
      await sql`drop function refuse_boom()`.execute(harness.deps.db);
    }
    expect(await jobNow(job)).toMatchObject({ state: 'finished', created: 2, failed: 1, processed: 3 });
    expect((await usersNamed('boom')).map((user) => user.user_name).sort()).toEqual(['boom-1', 'boom-3']);
    const failed = await rowsOf(harness, admin, job.id, '&status=failed');
    expect(failed.items.map((row) => [row.row, row.errors, row.user_id])).toEqual([
      [2, [{ column: 'row', code: 'internalError' }], null],
    ]);
    const attempts = await harness.deps.db
      .selectFrom('bulk_import_rows')
      .select('attempts')
      .where('job_id', '=', job.id)
      .where('row_number', '=', 2)
      .executeTakeFirstOrThrow();
    expect(attempts.attempts).toBe(4);
    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'CREATE')
      .where(sql<boolean>`details->>'user_name' = 'boom-2'`)
      .execute();
    expect(events).toEqual([]);
  });

  it('fails a row whose user name was taken after the dry run, and creates the rest', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('race', 3)), defaults());
    await insertTestUser(harness, { accountId: accountA, userName: 'race-2' });
    await start(job);
    await runner().drain();
    expect(await jobNow(job)).toMatchObject({ state: 'finished', created: 2, failed: 1 });
    const failed = await rowsOf(harness, admin, job.id, '&status=failed');
    expect(failed.items.map((row) => [row.row, row.errors])).toEqual([
      [2, [{ column: 'user_name', code: 'inUse' }]],
    ]);
  });

  it('cancels between rows: what was created stays, the rest is cancelled', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('cancel', 6)), defaults());
    await start(job);
    await runner().runNext({ maxRows: 2 });
    const cancel = await call(harness, 'DELETE', apiPaths.users.bulkJob(job.id), { token: admin.token });
    expect(cancel.status).toBe(204);
    expect((await jobNow(job)).state).toBe('cancelling');
    clock = new Date(clock.getTime() + 61_000);
    await runner().drain();
    expect(await jobNow(job)).toMatchObject({ state: 'cancelled', created: 2, cancelled: 4, processed: 2 });
    expect(await usersNamed('cancel')).toHaveLength(2);
    const again = await call(harness, 'DELETE', apiPaths.users.bulkJob(job.id), { token: admin.token });
    expect(again.status).toBe(409);
  });

  it('cancels a checked or queued job at once, and starts a job once only', async () => {
    const checked = await validated(harness, admin, csvOf(goodUsers('never', 2)), defaults());
    expect(
      (await call(harness, 'DELETE', apiPaths.users.bulkJob(checked.id), { token: admin.token })).status,
    ).toBe(204);
    expect(await jobNow(checked)).toMatchObject({ state: 'cancelled', cancelled: 2 });
    expect((await start(checked)).status).toBe(409);

    const queued = await validated(harness, admin, csvOf(goodUsers('queued', 2)), defaults());
    expect((await start(queued)).status).toBe(202);
    expect((await start(queued)).status).toBe(409);
    expect(
      (await call(harness, 'DELETE', apiPaths.users.bulkJob(queued.id), { token: admin.token })).status,
    ).toBe(204);
    await runner().drain();
    expect(await jobNow(queued)).toMatchObject({ state: 'cancelled', created: 0, cancelled: 2 });
    expect(await usersNamed('queued')).toEqual([]);
  });

  it('ends with the rest cancelled when its creator loses the permission', async () => {
    const creator = await callerWith(harness, {
      accessScope: 'system',
      permissions: ['MANAGE_USER', 'MANAGE_ACCOUNT_USER', 'VIEW_USER'],
    });
    const job = await validated(harness, creator, csvOf(goodUsers('lost', 3)), {
      accountId: accountA,
      roleIds: [customRole],
    });
    await start(job, creator);
    await harness.deps.db.deleteFrom('user_roles').where('user_id', '=', creator.id).execute();
    await runner().drain();
    const rows = await rowsOf(harness, creator, job.id);
    expect(await jobNow(job, creator)).toMatchObject({ state: 'cancelled', created: 0, cancelled: 3 });
    expect(rows.items.every((row) => row.errors[0]?.code === 'creatorLostPermission')).toBe(true);
  });

  it('writes the report in its creator’s language with the codes beside the reasons', async () => {
    await harness.deps.db.updateTable('users').set({ locale: 'de_DE' }).where('id', '=', admin.id).execute();
    try {
      const job = await validated(
        harness,
        admin,
        csvOf([{ ...goodUsers('german', 1)[0], email: 'nope' }]),
        defaults(),
      );
      const report = await call(harness, 'GET', apiPaths.users.bulkReport(job.id), { token: admin.token });
      const [, line] = parse(await report.text()) as string[][];
      expect(line?.[7]).toMatch(/^email: .+ \[invalidEmail\]$/);
      expect(line?.[7]).not.toContain('The e-mail address is not valid.');
    } finally {
      await harness.deps.db
        .updateTable('users')
        .set({ locale: 'en_US' })
        .where('id', '=', admin.id)
        .execute();
    }
  });
});

describe('a job is its creator’s alone (G10, escalation 9)', () => {
  it('answers 404 to anyone else, a system administrator included, for every bulk call', async () => {
    const job = await validated(harness, admin, csvOf(goodUsers('private', 1)), {
      accountId: accountA,
      roleIds: [roleIds.account_administrator],
    });
    const other = await signedInUser(harness, { accessScope: 'system' });
    const calls = [
      call(harness, 'GET', apiPaths.users.bulkJob(job.id), { token: other.token }),
      call(harness, 'GET', apiPaths.users.bulkRows(job.id), { token: other.token }),
      call(harness, 'GET', apiPaths.users.bulkReport(job.id), { token: other.token }),
      call(harness, 'DELETE', apiPaths.users.bulkJob(job.id), { token: other.token }),
      start(job, other),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(404);
    }
    expect(await jobNow(job)).toMatchObject({ state: 'validated' });
    const anonymous = await harness.app.request(apiPaths.users.bulkJob(job.id));
    expect(anonymous.status).toBe(401);
  });
});

describe('keeping personal data no longer than needed', () => {
  it('deletes a checked job never started after 24 hours and an ended one after 30 days, rows included', async () => {
    const defaults = { accountId: accountA, roleIds: [roleIds.account_administrator] };
    const checked = await validated(harness, admin, csvOf(goodUsers('purge-a', 2)), defaults);
    const ended = await validated(harness, admin, csvOf(goodUsers('purge-b', 2)), defaults);
    await start(ended);
    await runner().drain();
    const exists = async (jobId: string) =>
      (
        await harness.deps.db
          .selectFrom('bulk_import_rows')
          .select('row_number')
          .where('job_id', '=', jobId)
          .execute()
      ).length > 0;
    const day = 86_400_000;
    await purgeExpiredJobs(harness.deps.db, new Date(clock.getTime() + day - 60_000));
    expect([await exists(checked.id), await exists(ended.id)]).toEqual([true, true]);
    await purgeExpiredJobs(harness.deps.db, new Date(clock.getTime() + day + 60_000));
    expect([await exists(checked.id), await exists(ended.id)]).toEqual([false, true]);
    await purgeExpiredJobs(harness.deps.db, new Date(clock.getTime() + 30 * day + 60_000));
    expect(await exists(ended.id)).toBe(false);
    // The users it created stay.
    expect(await usersNamed('purge-b')).toHaveLength(2);
  });
});
