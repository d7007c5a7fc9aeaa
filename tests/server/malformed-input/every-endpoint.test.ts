import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { type DocumentedOperation, documentedOperations } from '../openapi/documented.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/**
 * Malformed input of every kind, sent to every operation of the OpenAPI documents, as the system
 * administrator (who passes every permission check and so reaches the deepest code) and anonymously.
 * Any answer is fine but a 5xx: bad input is the caller's mistake and must be answered as one.
 */

let harness: TestApp;
let token: string;
const OPERATIONS = await documentedOperations();

/** A session of its own for each operation: the sweep signs out, among everything else it sends. */
async function freshAdministratorToken(): Promise<string> {
  token = (await signedInUser(harness, { accessScope: 'system' })).token;
  return token;
}

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

const LONE_SURROGATE = '\uD800';
const VALID_LOOKING_ID = '00000000-0000-4000-8000-000000000000';
/** What a parameter holds when another one is the malformed one, so the malformed one is reached. */
const VALID_LOOKING: Readonly<Record<string, string>> = { locale: 'en_US' };

/** Values for a path parameter, as they travel in the URL. */
const PATH_VALUES = [
  '%00',
  '%ED%A0%80', // a lone surrogate, UTF-8 encoded: not valid UTF-8
  '%C0%AF', // an overlong encoding
  encodeURIComponent('\u202Ename'),
  'x'.repeat(300),
  '..%2F..%2Fetc',
  '%25',
  VALID_LOOKING_ID,
];

/** Bodies as raw text, for operations that read one. */
function malformedBodies(operation: DocumentedOperation): string[] {
  const bodies = ['{', '[]', 'null', '"text"', '1e400', JSON.stringify({ [LONE_SURROGATE]: 'x' })];
  const badValues: unknown[] = [
    LONE_SURROGATE,
    'a\u0000b',
    'x'.repeat(100_000),
    1e308,
    -1,
    [],
    {},
    true,
    null,
  ];
  // Every field a plain word, so that a body whose one bad field is a string passes the others' rules
  // and reaches whatever stores it.
  const words = Object.fromEntries(operation.bodyFields.map((key) => [key, 'word']));
  for (const key of operation.bodyFields) {
    for (const value of badValues) {
      bodies.push(JSON.stringify({ [key]: value }));
      bodies.push(JSON.stringify({ ...words, [key]: value }));
    }
    // A nested object whose every field is a lone surrogate, for objects such as service_period or urls.
    bodies.push(JSON.stringify({ [key]: { a: LONE_SURROGATE, from: LONE_SURROGATE, to: LONE_SURROGATE } }));
  }
  return bodies;
}

/** Query strings, for operations that read one. */
function malformedQueries(operation: DocumentedOperation): string[] {
  return operation.queryFields.flatMap((key) => [
    `${key}=%00`,
    `${key}=%ED%A0%80`,
    `${key}=1e400`,
    `${key}=-1`,
    `${key}=a&${key}=b`,
    `${key}=${'x'.repeat(5000)}`,
  ]);
}

/** The path with every parameter valid-looking but `malformed`, which gets `value` (all of them without it). */
function withPathParameters(path: string, value: string, malformed?: string): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    malformed === undefined || name === malformed ? value : (VALID_LOOKING[name] ?? VALID_LOOKING_ID),
  );
}

function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
}

async function send(
  operation: DocumentedOperation,
  path: string,
  body: string | undefined,
  bearer: string | null,
) {
  const headers: Record<string, string> = {};
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await harness.app.request(path, { method: operation.method.toUpperCase(), headers, body });
  await response.arrayBuffer();
  return response.status;
}

describe.each([
  ['the system administrator', freshAdministratorToken],
  ['an anonymous caller', async () => null],
])('malformed input from %s', (_who, session) => {
  it.each(OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    'never answers %s with a 5xx',
    async (_name, operation) => {
      const hasBody = operation.method === 'post' || operation.method === 'put';
      const bearer = await session();
      const failures: string[] = [];
      const check = async (path: string, body: string | undefined) => {
        const status = await send(operation, path, body, bearer);
        if (status >= 500)
          failures.push(`${status} for ${path} ${body === undefined ? '' : body.slice(0, 80)}`);
      };
      const validLookingPath = withPathParameters(operation.path, VALID_LOOKING_ID, '');
      for (const value of PATH_VALUES) {
        await check(withPathParameters(operation.path, value), hasBody ? '{}' : undefined);
        for (const name of pathParameters(operation.path)) {
          await check(withPathParameters(operation.path, value, name), hasBody ? '{}' : undefined);
        }
      }
      if (hasBody) for (const body of malformedBodies(operation)) await check(validLookingPath, body);
      for (const query of malformedQueries(operation)) {
        await check(`${validLookingPath}?${query}`, hasBody ? '{}' : undefined);
      }
      expect(failures).toEqual([]);
    },
  );
});

describe('the malformed inputs found by hand, on objects that exist', () => {
  beforeAll(freshAdministratorToken);

  const NO_URLS = {
    termsOfUse: null,
    privacyPolicy: null,
    legalRepository: null,
    webtrustAudit: null,
    support: null,
    contactUs: null,
  };

  async function put(path: string, body?: unknown) {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await harness.app.request(path, {
      method: 'PUT',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { error?: { field?: string } } };
  }

  it.each([
    ['provider', { provider: LONE_SURROGATE, federated_account_id: 'ext-1' }],
    ['federated_account_id', { provider: 'Identity', federated_account_id: `ext${LONE_SURROGATE}` }],
    ['provider', { provider: 'Id\u0000entity', federated_account_id: 'ext-1' }],
  ])('refuses a federation link with unstorable text in %s, naming it', async (field, fields) => {
    const id = await insertAccount(harness, { name: `Linked ${field}` });
    const answer = await put(apiPaths.tenants.federation(id), {
      ...fields,
      federated_account_name: 'Linked',
      details_url: 'https://identity.example/accounts/1',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.field).toBe(field);
  });

  it('refuses a sign-in page copyright with half a surrogate pair', async () => {
    const answer = await put(apiPaths.identity.loginCustomization, {
      logo: null,
      urls: NO_URLS,
      copyright: `© 2026 ${LONE_SURROGATE}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.field).toBe('copyright');
  });

  it('answers a NUL user id in the locale path as a mistake of the caller', async () => {
    const answer = await put('/imauth/api/v1/user/%00/locale/en_US');
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });
});
