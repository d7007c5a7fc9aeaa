import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction, AuditResourceType, AuditStatus } from '../../../contract/audit.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiTokenCreated } from '../../../contract/schemas/api-tokens.ts';
import type { CertificateIssued } from '../../../contract/schemas/certificates.ts';
import type { ClientAuthCertificate } from '../../../contract/schemas/client-auth.ts';
import type { EnrollmentCreated } from '../../../contract/schemas/enrollments.ts';
import type { Organization } from '../../../contract/schemas/organizations.ts';
import type { ServiceUserCreated } from '../../../contract/schemas/service-users.ts';
import type { Role } from '../../../contract/schemas/users.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../../server/identity/opaque-tokens.ts';
import { ensureBuiltInRoles } from '../../../server/users/roles.ts';
import { GOOD_PASSWORD, insertAccount, newTenantForm } from '../accounts/helpers.ts';
import { csvOf, goodUsers } from '../bulk-import/helpers.ts';
import { createCsr, withCertificateAuthority } from '../ca/helpers.ts';
import { policy } from '../certificate-profiles/helpers.ts';
import { insertTestProfile } from '../certificates/helpers.ts';
import { selfSigned } from '../client-auth/helpers.ts';
import { certificateRequest, codeOf } from '../enrollments/helpers.ts';
import { refreshCookieOf } from '../identity/requests.ts';
import { TEST_LIMITS } from '../licences/helpers.ts';
import { PUBLIC_URL } from '../mail/helpers.ts';
import { documentedOperations } from '../openapi/documented.ts';
import { contactFields, organizationFields } from '../organizations/requests.ts';
import { insertTestServiceUser } from '../service-users/helpers.ts';
import { createTestApp, type TestApp, type TestUser } from '../test-app.ts';
import { insertCustomRole, insertTestUser } from '../users/helpers.ts';

/**
 * Issue 16: every mutating operation of the API writes an audit event. The operations come from the
 * OpenAPI documents (`OPERATIONS`, which tests/server/openapi/operations.test.ts holds equal to the
 * routes the app serves); each has a case here that makes one real, successful call and finds its
 * event, or an entry in EXEMPT saying why it writes none (decision 023, "Exempt from the trail").
 * A new mutating operation without either fails the first test.
 */

/** Where every call of this suite comes from; the app trusts X-Forwarded-For, as behind its proxy. */
const ADDRESS = '203.0.113.7';
const USER_AGENT = 'AuditCoverage/1.0';

/** The mutating operations that write no event, each with the reason (decision 023 lists the same). */
const EXEMPT: Readonly<Record<string, string>> = {
  'post /imauth/api/v1/login/verify':
    'The first step of sign-in only answers which step comes next and stores nothing; the sign-in itself is recorded, failed or not.',
  'post /imauth/api/v1/refresh':
    'Token renewal changes no object a person acts on; the session it continues was recorded at sign-in and is at sign-out.',
  'post /account/ui-api/v1/user/{id}/verify/holder':
    'Reading whose an invitation or verification link is stores nothing and spends no code; the verification itself is recorded.',
  'post /account/ui-api/v1/user/bulk/validate':
    'The dry run of a bulk import changes nothing anyone else sees: the checked rows are kept for their creator alone until the import is started (recorded) or they expire.',
};

interface Expected {
  action: AuditAction;
  resourceType: AuditResourceType;
  status?: AuditStatus;
  /**
   * The signed-in caller (or the person a public link acts for), or how to read it from the answer
   * (the first administrator, made by the call); null where nobody is known.
   */
  actorId: string | null | ((answer: never) => string);
  /** Values sent or answered that no event may contain: passwords, tokens, codes, licence texts. */
  secrets?: readonly string[];
  /** Details the event must hold, where the case is about them. */
  details?: Record<string, unknown>;
  /** The answer expected when not the operation's success status (a failed sign-in). */
  httpStatus?: number;
}

/** A case's fixtures made; the one call it is about, and what that call must record. */
interface Prepared {
  call: () => Promise<Response>;
  expected: Expected;
  /** Secrets found in the call's answer (a token's value, an enrollment code), which no event may hold. */
  answerSecrets?: (answer: never) => readonly string[];
}

interface Case {
  operation: string;
  name?: string;
  run: () => Promise<Prepared>;
}

const OPERATIONS = await documentedOperations();
const MUTATING = OPERATIONS.filter((operation) => operation.method !== 'get').map(
  (operation) => `${operation.method} ${operation.path}`,
);
const SUCCESS_STATUS = new Map(
  OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, operation.successStatus]),
);

interface SendOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A raw body with its media type (CSV files, certificate files). */
  raw?: { type: string; bytes: string };
}

function send(
  harness: TestApp,
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  path: string,
  options: SendOptions = {},
): Promise<Response> {
  const json = options.body !== undefined;
  return Promise.resolve(
    harness.app.request(path, {
      method,
      headers: {
        'X-Forwarded-For': ADDRESS,
        'User-Agent': USER_AGENT,
        ...(json ? { 'Content-Type': 'application/json' } : {}),
        ...(options.raw ? { 'Content-Type': options.raw.type } : {}),
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: json ? JSON.stringify(options.body) : options.raw?.bytes,
    }),
  );
}

async function lastSeq(harness: TestApp): Promise<number> {
  const row = await harness.deps.db
    .selectFrom('audit_events')
    .select('seq')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.seq ?? 0;
}

/** Runs one case and checks the events its call wrote. */
async function check(harness: TestApp, testCase: Case): Promise<void> {
  const { call, expected, answerSecrets } = await testCase.run();
  // After the fixtures, so only the call's own events are judged.
  const before = await lastSeq(harness);
  const started = harness.deps.now().getTime();
  const response = await call();
  const ended = harness.deps.now().getTime();
  const answered = await response.text();
  const answer = (answered === '' ? null : JSON.parse(answered)) as never;
  expect(response.status, answered).toBe(expected.httpStatus ?? SUCCESS_STATUS.get(testCase.operation));
  const events = await harness.deps.db
    .selectFrom('audit_events')
    .selectAll()
    .where('seq', '>', before)
    .orderBy('seq')
    .execute();
  expect(events.length, `${testCase.operation} wrote no audit event`).toBeGreaterThan(0);
  const event = events.find(
    (candidate) => candidate.action === expected.action && candidate.resource_type === expected.resourceType,
  );
  expect(
    event,
    `no ${expected.action} ${expected.resourceType} among ${events.map((e) => `${e.action} ${e.resource_type}`).join(', ')}`,
  ).toBeDefined();
  expect(event).toMatchObject({
    status: expected.status ?? 'success',
    actor_id: typeof expected.actorId === 'function' ? expected.actorId(answer) : expected.actorId,
    ip_address: ADDRESS,
    user_agent: USER_AGENT,
    ...(expected.details ? { details: expected.details } : {}),
  });
  // Recorded at the time of the call (the app's clock), to the millisecond the trail keeps.
  expect(event?.occurred_at.getTime()).toBeGreaterThanOrEqual(started - 1);
  expect(event?.occurred_at.getTime()).toBeLessThanOrEqual(ended + 1);
  const secrets = [...(expected.secrets ?? []), ...(answerSecrets?.(answer) ?? [])];
  for (const secret of secrets) expect(secret.length).toBeGreaterThan(0);
  for (const { content } of events) {
    for (const secret of secrets) expect(content).not.toContain(secret);
  }
}

function checkCoverage(cases: readonly Case[]) {
  const covered = new Set([...cases.map((testCase) => testCase.operation), ...Object.keys(EXEMPT)]);
  return {
    uncovered: MUTATING.filter((operation) => !covered.has(operation)),
    unknown: [...covered].filter((operation) => !MUTATING.includes(operation)),
    bothCaseAndExempt: cases.filter((testCase) => testCase.operation in EXEMPT).map((c) => c.operation),
  };
}

const caseName = (testCase: Case) => `${testCase.operation}${testCase.name ? ` (${testCase.name})` : ''}`;

// First-time setup -----------------------------------------------------------------------------

let setupHarness: TestApp;
const SETUP_PASSWORD = 'Analytical-Engine-1843';
let licenceText = '';

const SETUP_CASES: Case[] = [
  {
    operation: 'post /account/ui-api/v1/setup/license',
    run: async () => {
      licenceText = await setupHarness.signLicence();
      return {
        call: () => send(setupHarness, 'POST', apiPaths.setup.licence, { body: { body: licenceText } }),
        expected: { action: 'CREATE', resourceType: 'LICENSE', actorId: null, secrets: [licenceText] },
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/setup/user',
    run: async () => {
      return {
        call: () =>
          send(setupHarness, 'POST', apiPaths.setup.user, {
            body: {
              first_name: 'Ada',
              last_name: 'Lovelace',
              email: 'ada@example.com',
              user_name: 'ada',
              password: SETUP_PASSWORD,
              repeatedPassword: SETUP_PASSWORD,
            },
          }),
        expected: {
          action: 'CREATE',
          resourceType: 'USER',
          actorId: (answer: { id: string }) => answer.id,
          secrets: [SETUP_PASSWORD],
        },
      };
    },
  },
];

// Everything else, in one app ------------------------------------------------------------------

let harness: TestApp;
let system: TestUser & { token: string };
let accountId: string;
let roles: Awaited<ReturnType<typeof ensureBuiltInRoles>>;
let profileId: string;
let viewerRole: string;

/** Sign-in as the console does it, from this suite's address; answers the access token and cookie. */
async function signInAs(user: TestUser): Promise<{ token: string; cookie: string }> {
  const response = await send(harness, 'POST', apiPaths.identity.login, {
    body: { username: user.userName, password: user.password },
  });
  if (response.status !== 200) throw new Error(`Sign-in answered ${response.status}`);
  const body = (await response.json()) as { access_token: string };
  return { token: body.access_token, cookie: refreshCookieOf(response) };
}

/** A signed-in person of `accountId` (account administrator), for cases that act on themselves. */
async function signedInPerson(): Promise<TestUser & { token: string }> {
  const user = await harness.createUser({ accessScope: 'account', accountId });
  return { ...user, token: (await signInAs(user)).token };
}

const asSystem = (
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  path: string,
  options: Omit<SendOptions, 'token'> = {},
) => send(harness, method, path, { ...options, token: system.token });

/** What the system administrator's change is expected to record. */
const bySystem = (
  action: AuditAction,
  resourceType: AuditResourceType,
  secrets?: readonly string[],
  details?: Record<string, unknown>,
): Expected => ({ action, resourceType, actorId: system.id, secrets, details });

const ANY = { 'If-Match': '*' };

async function json<T>(response: Promise<Response>, status: number): Promise<T> {
  const answered = await response;
  if (answered.status !== status)
    throw new Error(`Fixture call answered ${answered.status}: ${await answered.text()}`);
  return (await answered.json()) as T;
}

/** A single-use link code of `purpose` for the user, as the mail would carry it. */
async function linkCode(userId: string, purpose: 'invitation' | 'reset_password'): Promise<string> {
  const code = newOpaqueToken();
  const { email } = await harness.deps.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const now = harness.deps.now();
  await harness.deps.db
    .insertInto('user_tokens')
    .values({
      token_hash: hashOpaqueToken(code),
      user_id: userId,
      purpose,
      email,
      created_at: now,
      expires_at: new Date(now.getTime() + 3_600_000),
    })
    .execute();
  return code;
}

async function apiToken(path: string): Promise<ApiTokenCreated> {
  return json<ApiTokenCreated>(
    asSystem('POST', path, { body: { name: `Token ${randomUUID().slice(0, 6)}`, end_date: null } }),
    201,
  );
}

async function enrollment(): Promise<{ id: string; code: string; personId: string }> {
  const personId = await insertTestUser(harness, { accountId, email: 'enrollee@example.com' });
  const created = await json<EnrollmentCreated>(
    asSystem('POST', apiPaths.enrollments.create, {
      body: { account_id: accountId, profile_id: profileId, seat: { kind: 'user', user_id: personId } },
    }),
    201,
  );
  return { id: created.enrollment.id, code: codeOf(created.enrollment_url), personId };
}

async function uploadedCertificate(path: string): Promise<ClientAuthCertificate> {
  const certificate = await selfSigned();
  return (
    await json<{ item: ClientAuthCertificate }>(
      asSystem('POST', path, { body: { certificate: certificate.pem } }),
      201,
    )
  ).item;
}

async function organization(): Promise<Organization> {
  return json<Organization>(
    asSystem('POST', apiPaths.organizations.list, {
      body: { ...organizationFields(), account_id: accountId },
    }),
    201,
  );
}

async function role(): Promise<Role> {
  return json<Role>(
    asSystem('POST', apiPaths.roles.list, {
      body: {
        name: `Role ${randomUUID().slice(0, 8)}`,
        application_id: 'account_manager',
        account_id: accountId,
        permissions: [],
      },
    }),
    201,
  );
}

async function bulkJob(): Promise<string> {
  const query = new URLSearchParams({ account_id: accountId, role_ids: viewerRole, file_name: 'users.csv' });
  const job = await json<{ id: string }>(
    asSystem('POST', `${apiPaths.users.bulkValidate}?${query}`, {
      raw: { type: 'text/csv', bytes: csvOf(goodUsers(`bulk-${randomUUID().slice(0, 6)}`, 2)) },
    }),
    200,
  );
  return job.id;
}

const NEW_PASSWORD = 'Another-Horse-Battery-77';
const WRONG_PASSWORD = 'Wrong-Horse-Battery-13';

const CASES: Case[] = [
  // Identity: sign-in, failed sign-in, sign-out, the sign-in page.
  {
    operation: 'post /imauth/api/v1/auth/login',
    name: 'successful sign-in',
    run: async () => {
      const user = await harness.createUser({ accessScope: 'account', accountId });
      return {
        call: () =>
          send(harness, 'POST', apiPaths.identity.login, {
            body: { username: user.userName, password: user.password },
          }),
        expected: { action: 'LOGIN', resourceType: 'BASIC_AUTH', actorId: user.id, secrets: [user.password] },
        answerSecrets: (answer: { access_token: string }) => [answer.access_token],
      };
    },
  },
  {
    operation: 'post /imauth/api/v1/auth/login',
    name: 'failed sign-in',
    run: async () => {
      const user = await harness.createUser({ accessScope: 'account', accountId });
      return {
        call: () =>
          send(harness, 'POST', apiPaths.identity.login, {
            body: { username: user.userName, password: WRONG_PASSWORD },
          }),
        expected: {
          action: 'LOGIN_ERROR',
          resourceType: 'BASIC_AUTH',
          status: 'failure',
          actorId: user.id,
          secrets: [WRONG_PASSWORD, user.password],
          httpStatus: 401,
        },
      };
    },
  },
  {
    operation: 'post /imauth/api/v1/logout',
    name: 'sign-out',
    run: async () => {
      const person = await signedInPerson();
      return {
        call: () => send(harness, 'POST', apiPaths.identity.logout, { token: person.token }),
        expected: { action: 'LOGOUT', resourceType: 'USER', actorId: person.id, secrets: [person.token] },
      };
    },
  },
  {
    operation: 'put /imauth/api/v1/login/customization',
    run: async () => ({
      call: () =>
        asSystem('PUT', apiPaths.identity.loginCustomization, {
          body: {
            logo: null,
            urls: {
              termsOfUse: null,
              privacyPolicy: null,
              legalRepository: null,
              webtrustAudit: null,
              support: 'https://support.example.com/',
              contactUs: null,
            },
            copyright: '© 2026 Audited',
          },
        }),
      expected: bySystem('UPDATE', 'ACCOUNT'),
    }),
  },

  // Licences.
  {
    operation: 'put /account/ui-api/v1/account/{id}/license/{app}',
    run: async () => ({
      call: () =>
        asSystem('PUT', apiPaths.licence.byApp(accountId, 'secure_software_manager'), {
          body: { changes: [{ feature: 'signing_keys', option: 'add', quantity: 5 }] },
          headers: ANY,
        }),
      expected: bySystem('UPDATE', 'LICENSE'),
    }),
  },
  {
    operation: 'put /account/ui-api/v1/account/{id}/license/usage/{app}',
    run: async () => ({
      call: () =>
        asSystem('PUT', apiPaths.licence.accountUsage(accountId, 'secure_software_manager'), {
          body: { usage: [{ feature: 'signing_keys', used: 2 }] },
        }),
      expected: bySystem('UPDATE', 'LICENSE'),
    }),
  },

  // Users: their fields, passwords, terms, links, mail, lifecycle.
  {
    operation: 'put /account/ui-api/v1/user/{id}/locale/{locale}',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      return {
        call: () => asSystem('PUT', apiPaths.userLocale(id, 'de_DE')),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      const row = await harness.deps.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return {
        call: () =>
          asSystem('PUT', apiPaths.users.byId(id), {
            body: {
              first_name: 'Renamed',
              last_name: row.last_name,
              user_name: row.user_name,
              email: row.email,
              phone: '',
              locale: row.locale,
            },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/password',
    name: 'password update',
    run: async () => {
      const person = await signedInPerson();
      return {
        call: () =>
          send(harness, 'PUT', apiPaths.users.password(person.id), {
            token: person.token,
            body: {
              current_password: person.password,
              password: NEW_PASSWORD,
              repeatedPassword: NEW_PASSWORD,
            },
          }),
        expected: {
          action: 'UPDATE_PASSWORD',
          resourceType: 'USER',
          actorId: person.id,
          secrets: [person.password, NEW_PASSWORD],
        },
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/user',
    run: async () => {
      const userName = `created-${randomUUID().slice(0, 8)}`;
      return {
        call: () =>
          asSystem('POST', apiPaths.users.list, {
            body: {
              first_name: 'Ada',
              last_name: 'Lovelace',
              email: `${userName}@example.com`,
              user_name: userName,
              phone: '',
              locale: 'en_US',
              primary_account_id: accountId,
              role_ids: [roles.account_administrator],
            },
          }),
        expected: bySystem('CREATE', 'USER'),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/user',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      return {
        call: () => asSystem('DELETE', `${apiPaths.users.list}?ids=${id}`),
        expected: bySystem('DELETE', 'USER'),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/user/{id}',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      return {
        call: () => asSystem('DELETE', apiPaths.users.byId(id)),
        expected: bySystem('DELETE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/enable',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      return {
        call: () => asSystem('PUT', apiPaths.users.enable(id), { body: { enabled: false }, headers: ANY }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/access',
    run: async () => {
      const id = await insertTestUser(harness, { accountId, roleIds: [roles.account_administrator] });
      return {
        call: () =>
          asSystem('PUT', apiPaths.users.access(id), {
            body: { account_ids: [], role_ids: [viewerRole] },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/verification',
    run: async () => {
      const id = await insertTestUser(harness, { accountId, pending: true });
      return {
        call: () => asSystem('PUT', apiPaths.users.verification(id)),
        expected: bySystem('SEND_USER_MAIL', 'USER', [], { mail: 'invitation' }),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/email',
    name: 'reset e-mail',
    run: async () => {
      const user = await harness.createUser({ accessScope: 'account', accountId });
      return {
        call: () => asSystem('PUT', apiPaths.users.resetMail(user.id)),
        expected: bySystem('SEND_RESET_PASSWORD', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/standard-login',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      return {
        call: () => asSystem('PUT', apiPaths.users.standardLogin(id)),
        expected: bySystem('SEND_USER_MAIL', 'USER', [], { mail: 'standard_login' }),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/resendSsoEmail',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      await harness.deps.db
        .updateTable('users')
        .set({ saml_username: `saml-${id}` })
        .where('id', '=', id)
        .execute();
      return {
        call: () => asSystem('PUT', apiPaths.users.resendSsoEmail(id)),
        expected: bySystem('SEND_USER_MAIL', 'USER', [], { mail: 'sso_sign_in' }),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/user/{id}/mfa',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      await harness.deps.db
        .updateTable('users')
        .set({ mfa_enrolled_at: harness.deps.now() })
        .where('id', '=', id)
        .execute();
      return { call: () => asSystem('DELETE', apiPaths.users.mfa(id)), expected: bySystem('UPDATE', 'USER') };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/defaultManager',
    run: async () => {
      const person = await signedInPerson();
      return {
        call: () =>
          send(harness, 'PUT', apiPaths.users.defaultManager(person.id, '/account'), {
            token: person.token,
          }),
        expected: { action: 'UPDATE', resourceType: 'USER', actorId: person.id },
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/agreement',
    name: 'terms acceptance',
    run: async () => {
      const person = await signedInPerson();
      return {
        call: () =>
          send(harness, 'PUT', apiPaths.users.agreement(person.id), {
            token: person.token,
            body: { locale: 'de_DE' },
          }),
        expected: { action: 'TERMS_AND_CONDITIONS', resourceType: 'USER', actorId: person.id },
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/user/{id}/verify',
    run: async () => {
      const id = await insertTestUser(harness, { accountId, pending: true });
      const { user_name } = await harness.deps.db
        .selectFrom('users')
        .select('user_name')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const code = await linkCode(id, 'invitation');
      return {
        call: () =>
          send(harness, 'POST', apiPaths.users.verify(id), {
            body: { verification_code: code, login: user_name, password: NEW_PASSWORD },
          }),
        expected: {
          action: 'UPDATE_PASSWORD',
          resourceType: 'USER',
          actorId: id,
          secrets: [code, NEW_PASSWORD],
        },
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/user/{id}/reset-password',
    run: async () => {
      const user = await harness.createUser({ accessScope: 'account', accountId });
      const code = await linkCode(user.id, 'reset_password');
      return {
        call: () =>
          send(harness, 'POST', apiPaths.users.resetPassword(user.id), {
            body: { reset_code: code, password: NEW_PASSWORD, repeatedPassword: NEW_PASSWORD },
          }),
        expected: {
          action: 'UPDATE_PASSWORD',
          resourceType: 'USER',
          actorId: user.id,
          secrets: [code, NEW_PASSWORD, user.password],
        },
      };
    },
  },

  // Bulk user creation: the job's start and its cancellation (each user it makes is a CREATE USER).
  {
    operation: 'post /account/ui-api/v1/user/bulk',
    run: async () => {
      const jobId = await bulkJob();
      return {
        call: () =>
          asSystem('POST', apiPaths.users.bulk, { body: { job_id: jobId, send_invitations: false } }),
        expected: bySystem('CREATE', 'BULK_IMPORT', [], {
          file_name: 'users.csv',
          users: 2,
          send_invitations: false,
        }),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/user/bulk/{jobId}',
    run: async () => {
      const jobId = await bulkJob();
      return {
        call: () => asSystem('DELETE', apiPaths.users.bulkJob(jobId)),
        expected: bySystem('UPDATE', 'BULK_IMPORT', [], {
          changes: { state: { from: 'validated', to: 'cancelled' } },
        }),
      };
    },
  },

  // API tokens of people and of service users.
  {
    operation: 'post /account/ui-api/v1/user/{id}/api-tokens',
    run: async () => {
      return {
        call: () =>
          asSystem('POST', apiPaths.users.apiTokens(system.id), {
            body: { name: 'Nightly export', end_date: null },
          }),
        expected: bySystem('CREATE', 'APIKEY'),
        answerSecrets: (answer: ApiTokenCreated) => [answer.value],
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/api-tokens/{tokenId}',
    run: async () => {
      const token = await apiToken(apiPaths.users.apiTokens(system.id));
      return {
        call: () =>
          asSystem('PUT', apiPaths.users.apiToken(system.id, token.id), {
            body: { end_date: '2099-01-01' },
          }),
        expected: bySystem('UPDATE', 'APIKEY', [token.value]),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/user/{id}/api-tokens/{tokenId}',
    run: async () => {
      const token = await apiToken(apiPaths.users.apiTokens(system.id));
      return {
        call: () => asSystem('DELETE', apiPaths.users.apiToken(system.id, token.id)),
        expected: bySystem('DELETE', 'APIKEY', [token.value]),
      };
    },
  },

  // Certificates and client-authentication certificates.
  {
    operation: 'post /certificate-authority/api/v1/certificate',
    run: async () => {
      const { pem } = await createCsr();
      return {
        call: () =>
          asSystem('POST', apiPaths.certificates.list, {
            body: { profile_id: profileId, csr: pem, common_name: 'sensor-1.example.com' },
          }),
        expected: bySystem('CREATE', 'CERTIFICATE'),
      };
    },
  },
  {
    operation: 'post /certificate-authority/api/v1/certificate/{id}/revoke',
    run: async () => {
      const issued = await json<CertificateIssued>(
        asSystem('POST', apiPaths.certificates.list, {
          body: { profile_id: profileId, csr: (await createCsr()).pem, common_name: 'sensor-2.example.com' },
        }),
        201,
      );
      return {
        call: () =>
          asSystem('POST', apiPaths.certificates.revoke(issued.id), {
            body: { reason: 'superseded' },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'CERTIFICATE'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/user/{id}/client-auth-certificate',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      const { pem } = await selfSigned();
      return {
        call: () =>
          asSystem('POST', apiPaths.users.clientAuthCertificates(id), {
            body: { certificate: pem },
          }),
        expected: bySystem('CREATE', 'CLIENT_AUTH_CERT'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/user/{id}/client-auth-certificate/{certId}/enable',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      const certificate = await uploadedCertificate(apiPaths.users.clientAuthCertificates(id));
      return {
        call: () =>
          asSystem('PUT', apiPaths.users.clientAuthCertificateEnable(id, certificate.id), {
            body: { enabled: false },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'CLIENT_AUTH_CERT'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/user/{id}/sendSetupCacBasedLoginEmail',
    run: async () => {
      const id = await insertTestUser(harness, { accountId });
      return {
        call: () => asSystem('POST', apiPaths.users.sendSetupCacBasedLoginEmail(id)),
        expected: bySystem('SEND_CLIENT_AUTH_SETUP', 'CLIENT_AUTH_CERT'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/service-user/{id}/client-auth-certificate',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      const { pem } = await selfSigned();
      return {
        call: () =>
          asSystem('POST', apiPaths.serviceUsers.clientAuthCertificates(id), {
            body: { certificate: pem },
          }),
        expected: bySystem('CREATE', 'CLIENT_AUTH_CERT'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/service-user/{id}/client-auth-certificate/{certId}/enable',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      const certificate = await uploadedCertificate(apiPaths.serviceUsers.clientAuthCertificates(id));
      return {
        call: () =>
          asSystem('PUT', apiPaths.serviceUsers.clientAuthCertificateEnable(id, certificate.id), {
            body: { enabled: false },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'CLIENT_AUTH_CERT'),
      };
    },
  },

  // Enrollments: the administrator's calls and the enrollee's.
  {
    operation: 'post /account/ui-api/v2/enrollment',
    run: async () => {
      const personId = await insertTestUser(harness, { accountId });
      return {
        call: () =>
          asSystem('POST', apiPaths.enrollments.create, {
            body: { account_id: accountId, profile_id: profileId, seat: { kind: 'user', user_id: personId } },
          }),
        expected: bySystem('CREATE', 'ENROLLMENT'),
        answerSecrets: (answer: EnrollmentCreated) => [codeOf(answer.enrollment_url)],
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v2/enrollment/{id}',
    run: async () => {
      const { id, code } = await enrollment();
      return {
        call: () => asSystem('DELETE', apiPaths.enrollments.byId(id)),
        // Cancelled, not removed: the enrollment stays listed with its new status.
        expected: bySystem('UPDATE', 'ENROLLMENT', [code]),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v2/enrollment/{id}/resend',
    run: async () => {
      const { id, code } = await enrollment();
      return {
        call: () => asSystem('POST', apiPaths.enrollments.resend(id)),
        expected: bySystem('UPDATE', 'ENROLLMENT', [code]),
        answerSecrets: (answer: EnrollmentCreated) => [codeOf(answer.enrollment_url)],
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/enrollment/{id}/client-auth-certificate',
    run: async () => {
      const { id } = await enrollment();
      return {
        call: () => asSystem('POST', apiPaths.enrollments.clientAuthCertificate(id)),
        expected: bySystem('UPDATE', 'ENROLLMENT'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v2/enrollment/{id}/{code}/client-auth-certificate',
    run: async () => {
      const { id, code, personId } = await enrollment();
      await json(asSystem('POST', apiPaths.enrollments.clientAuthCertificate(id)), 200);
      const { pem } = await createCsr();
      return {
        call: () =>
          send(harness, 'POST', apiPaths.enrollments.publicClientAuthCertificate(id, code), {
            body: { csr: pem },
          }),
        expected: { action: 'CREATE', resourceType: 'CLIENT_AUTH_CERT', actorId: personId, secrets: [code] },
      };
    },
  },
  {
    operation: 'post /account/ui-api/v2/enrollment/{id}/{code}/certificate',
    run: async () => {
      const { id, code, personId } = await enrollment();
      const { pem } = await createCsr();
      return {
        call: () =>
          send(harness, 'POST', apiPaths.enrollments.certificate(id, code), {
            body: certificateRequest(pem),
          }),
        expected: { action: 'CREATE', resourceType: 'CERTIFICATE', actorId: personId, secrets: [code] },
      };
    },
  },
  {
    operation: 'put /account/ui-api/v2/enrollment/{id}/{code}/redeem',
    run: async () => {
      const { id, code, personId } = await enrollment();
      await json(
        send(harness, 'POST', apiPaths.enrollments.certificate(id, code), {
          body: certificateRequest((await createCsr()).pem),
        }),
        201,
      );
      return {
        call: () => send(harness, 'PUT', apiPaths.enrollments.redeem(id, code)),
        expected: { action: 'UPDATE', resourceType: 'ENROLLMENT', actorId: personId, secrets: [code] },
      };
    },
  },

  // Service users.
  {
    operation: 'post /account/ui-api/v1/service-user',
    run: async () => {
      return {
        call: () =>
          asSystem('POST', apiPaths.serviceUsers.list, {
            body: {
              name: `svc ${randomUUID().slice(0, 8)}`,
              email: 'owner@example.com',
              primary_account_id: accountId,
              role_ids: [viewerRole],
            },
          }),
        expected: bySystem('CREATE', 'USER'),
        answerSecrets: (answer: ServiceUserCreated) => [answer.api_token.value],
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/service-user/{id}',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      return {
        call: () =>
          asSystem('PUT', apiPaths.serviceUsers.byId(id), {
            body: {
              name: `renamed ${id.slice(0, 6)}`,
              description: 'Renamed',
              email: 'owner@example.com',
              end_date: null,
            },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/service-user/{id}/access',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, {
        accountId,
        createdBy: system.id,
        roleIds: [viewerRole],
      });
      return {
        call: () =>
          asSystem('PUT', apiPaths.serviceUsers.access(id), {
            body: { account_ids: [], role_ids: [roles.account_administrator] },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/service-user/{id}/enable',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      return {
        call: () =>
          asSystem('PUT', apiPaths.serviceUsers.enable(id), { body: { enabled: false }, headers: ANY }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/service-user/{id}',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      return {
        call: () => asSystem('DELETE', apiPaths.serviceUsers.byId(id)),
        expected: bySystem('DELETE', 'USER'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/service-user/{id}/api-tokens',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      return {
        call: () =>
          asSystem('POST', apiPaths.serviceUsers.apiTokens(id), {
            body: { name: 'Second token', end_date: null },
          }),
        expected: bySystem('CREATE', 'APIKEY'),
        answerSecrets: (answer: ApiTokenCreated) => [answer.value],
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/service-user/{id}/api-tokens/{tokenId}',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      const token = await apiToken(apiPaths.serviceUsers.apiTokens(id));
      return {
        call: () =>
          asSystem('PUT', apiPaths.serviceUsers.apiToken(id, token.id), {
            body: { end_date: '2099-01-01' },
          }),
        expected: bySystem('UPDATE', 'APIKEY', [token.value]),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/service-user/{id}/api-tokens/{tokenId}',
    run: async () => {
      const { id } = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
      const token = await apiToken(apiPaths.serviceUsers.apiTokens(id));
      return {
        call: () => asSystem('DELETE', apiPaths.serviceUsers.apiToken(id, token.id)),
        expected: bySystem('DELETE', 'APIKEY', [token.value]),
      };
    },
  },

  // Roles.
  {
    operation: 'post /account/ui-api/v1/role',
    run: async () => ({
      call: () =>
        asSystem('POST', apiPaths.roles.list, {
          body: {
            name: 'Auditors',
            application_id: 'account_manager',
            account_id: accountId,
            permissions: [],
          },
        }),
      expected: bySystem('CREATE', 'ROLE'),
    }),
  },
  {
    operation: 'put /account/ui-api/v1/role/{id}/users',
    run: async () => {
      const [{ id }, userId] = [await role(), await insertTestUser(harness, { accountId })];
      return {
        call: () => asSystem('PUT', apiPaths.roles.users(id), { body: { add: [userId], remove: [] } }),
        expected: bySystem('UPDATE', 'USER'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/role/{id}',
    run: async () => {
      const { id } = await role();
      return {
        call: () =>
          asSystem('PUT', apiPaths.roles.byId(id), {
            body: { name: `Renamed ${id.slice(0, 8)}`, description: '', permissions: [] },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'ROLE'),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/role/{id}',
    run: async () => {
      const { id } = await role();
      return {
        call: () => asSystem('DELETE', apiPaths.roles.byId(id), { headers: ANY }),
        // Archived, not removed: the role stays readable for the trail and its former holders.
        expected: bySystem('UPDATE', 'ROLE'),
      };
    },
  },

  // Organizations and their contacts.
  {
    operation: 'post /account/ui-api/v1/organizations',
    run: async () => ({
      call: () =>
        asSystem('POST', apiPaths.organizations.list, {
          body: { ...organizationFields(), account_id: accountId },
        }),
      expected: bySystem('CREATE', 'ORGANIZATION'),
    }),
  },
  {
    operation: 'put /account/ui-api/v1/organizations/{id}',
    run: async () => {
      const { id } = await organization();
      return {
        call: () =>
          asSystem('PUT', apiPaths.organizations.byId(id), { body: organizationFields(), headers: ANY }),
        expected: bySystem('UPDATE', 'ORGANIZATION'),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/organizations/{id}',
    run: async () => {
      const { id } = await organization();
      return {
        call: () => asSystem('DELETE', apiPaths.organizations.byId(id), { headers: ANY }),
        expected: bySystem('DELETE', 'ORGANIZATION'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/organizations/{id}/contacts',
    run: async () => {
      const { id } = await organization();
      return {
        call: () => asSystem('POST', apiPaths.organizations.contacts(id), { body: contactFields() }),
        expected: bySystem('CREATE', 'ORGANIZATION_CONTACT'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/organizations/{id}/contacts/{contactId}',
    run: async () => {
      const { id } = await organization();
      const contact = await json<{ id: string }>(
        asSystem('POST', apiPaths.organizations.contacts(id), { body: contactFields() }),
        201,
      );
      return {
        call: () =>
          asSystem('PUT', apiPaths.organizations.contact(id, contact.id), {
            body: contactFields({ title: 'Chief security officer' }),
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'ORGANIZATION_CONTACT'),
      };
    },
  },
  {
    operation: 'delete /account/ui-api/v1/organizations/{id}/contacts/{contactId}',
    run: async () => {
      const { id } = await organization();
      const contact = await json<{ id: string }>(
        asSystem('POST', apiPaths.organizations.contacts(id), { body: contactFields() }),
        201,
      );
      return {
        call: () => asSystem('DELETE', apiPaths.organizations.contact(id, contact.id), { headers: ANY }),
        expected: bySystem('DELETE', 'ORGANIZATION_CONTACT'),
      };
    },
  },

  // Accounts, their features and their link to an identity product; platform feature flags.
  {
    operation: 'post /account/ui-api/v1/tenants',
    run: async () => ({
      call: () => asSystem('POST', apiPaths.tenants.list, { body: newTenantForm() }),
      expected: bySystem('CREATE', 'ACCOUNT', [GOOD_PASSWORD]),
    }),
  },
  {
    operation: 'delete /account/ui-api/v1/tenants',
    run: async () => {
      const id = await insertAccount(harness);
      return {
        call: () => asSystem('DELETE', `${apiPaths.tenants.list}?ids=${id}`),
        expected: bySystem('DELETE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/tenant/{id}',
    run: async () => {
      const id = await insertAccount(harness);
      return {
        call: () =>
          asSystem('PUT', apiPaths.tenants.byId(id), {
            body: {
              name: 'Renamed Account',
              locale: 'en_US',
              service_period: { from: '2026-01-01', to: '2099-12-31' },
            },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/tenant/{id}/unlink',
    run: async () => {
      const id = await insertAccount(harness, { federation: { status: 'linked' } });
      return {
        call: () => asSystem('POST', apiPaths.tenants.unlink(id), { body: { confirmation: 'UNLINK' } }),
        expected: bySystem('UPDATE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/tenant/{id}/deactivate',
    run: async () => {
      const id = await insertAccount(harness);
      return {
        call: () => asSystem('POST', apiPaths.tenants.deactivate(id), { headers: ANY }),
        expected: bySystem('UPDATE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'post /account/ui-api/v1/tenant/{id}/activate',
    run: async () => {
      const id = await insertAccount(harness, { active: false });
      return {
        call: () => asSystem('POST', apiPaths.tenants.activate(id), { headers: ANY }),
        expected: bySystem('UPDATE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/features/account/{id}',
    run: async () => {
      const id = await insertAccount(harness);
      return {
        call: () =>
          asSystem('PUT', apiPaths.accountFeatures.byAccount(id), {
            body: [{ feature_id: 'key_locker_account', enabled: true, end_date: null }],
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'put /account/api/v1/tenants/{id}/federation',
    run: async () => {
      const id = await insertAccount(harness);
      return {
        call: () =>
          asSystem('PUT', apiPaths.tenants.federation(id), {
            body: {
              provider: 'OneLogin',
              federated_account_id: `ol-${id.slice(0, 8)}`,
              federated_account_name: 'Linked Labs',
              details_url: 'https://identity.example.com/accounts/ol-4711',
            },
          }),
        expected: bySystem('UPDATE', 'ACCOUNT'),
      };
    },
  },
  {
    operation: 'put /account/ui-api/v1/feature-flag/{name}',
    run: async () => ({
      call: () =>
        asSystem('PUT', apiPaths.featureFlags.byName('partner_accounts'), { body: { enabled: false } }),
      expected: bySystem('UPDATE', 'ACCOUNT'),
    }),
  },

  // Certificate profiles.
  {
    operation: 'post /certificate-authority/api/v1/profile',
    run: async () => ({
      call: () =>
        asSystem('POST', apiPaths.certificateProfiles.profiles, {
          body: { name: `Profile ${randomUUID().slice(0, 8)}`, account_id: accountId, policy: policy() },
        }),
      expected: bySystem('CREATE', 'CERTIFICATE_PROFILE'),
    }),
  },
  {
    operation: 'put /certificate-authority/api/v1/profile/{id}',
    run: async () => {
      const { id } = await insertTestProfile(harness, accountId);
      return {
        call: () =>
          asSystem('PUT', apiPaths.certificateProfiles.byId(id), {
            body: { name: `Renamed ${id.slice(0, 8)}`, description: '', policy: policy() },
            headers: ANY,
          }),
        expected: bySystem('UPDATE', 'CERTIFICATE_PROFILE'),
      };
    },
  },
  {
    operation: 'delete /certificate-authority/api/v1/profile/{id}',
    run: async () => {
      const { id } = await insertTestProfile(harness, accountId);
      return {
        call: () => asSystem('DELETE', apiPaths.certificateProfiles.byId(id)),
        expected: bySystem('DELETE', 'CERTIFICATE_PROFILE'),
      };
    },
  },
];

describe('the audit trail of every mutating operation', () => {
  it('has a case or a reasoned exemption for each mutating operation of the API, and for nothing else', () => {
    expect(MUTATING.length).toBeGreaterThan(0);
    expect(checkCoverage([...SETUP_CASES, ...CASES])).toEqual({
      uncovered: [],
      unknown: [],
      bothCaseAndExempt: [],
    });
    for (const reason of Object.values(EXEMPT)) expect(reason.length).toBeGreaterThan(20);
  });

  describe('first-time setup', () => {
    beforeAll(async () => {
      setupHarness = await createTestApp({ config: { trustProxy: true } });
    });
    afterAll(() => setupHarness.close());

    it.each(SETUP_CASES.map((testCase) => [caseName(testCase), testCase] as const))(
      '%s writes its event',
      (_name, testCase) => check(setupHarness, testCase),
    );
  });

  describe('the platform in use', () => {
    beforeAll(async () => {
      harness = await createTestApp({ config: { trustProxy: true, publicUrl: PUBLIC_URL } });
      await withCertificateAuthority(harness.deps);
      await harness.installLicence({
        seats: { ...TEST_LIMITS.seats },
        limits: JSON.parse(JSON.stringify(TEST_LIMITS.limits)),
      });
      roles = await ensureBuiltInRoles(harness.deps.db, harness.deps.now());
      const user = await harness.createUser({ accessScope: 'system' });
      system = { ...user, token: (await signInAs(user)).token };
      accountId = await insertAccount(harness, { name: 'Audited Account' });
      profileId = (await insertTestProfile(harness, accountId)).id;
      viewerRole = await insertCustomRole(harness, accountId, ['VIEW_USER']);
    });
    afterAll(() => harness.close());

    it.each(CASES.map((testCase) => [caseName(testCase), testCase] as const))(
      '%s writes its event',
      (_name, testCase) => check(harness, testCase),
    );
  });
});
