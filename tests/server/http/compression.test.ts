import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { negotiateContentCoding } from '../../../server/http/compression.ts';
import { signedInUser } from '../accounts/helpers.ts';
import type { Caller } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';

/**
 * What travels compressed: the console's files as the build's brotli and gzip copies, the API's
 * larger JSON answers and the streamed exports, each by the client's Accept-Encoding.
 */
let harness: TestApp;
let admin: Caller;
const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => ({ index })))};`;
const html = `<!doctype html><title>Console</title>${'<p>field network</p>'.repeat(100)}`;

beforeAll(async () => {
  harness = await createTestApp();
  admin = await signedInUser(harness, { accessScope: 'system', userName: 'compression-admin' });
  for (let index = 0; index < 60; index += 1) {
    await insertTestUser(harness, { accountId: admin.accountId, userName: `field-user-${index}` });
  }
  // The build's layout (vite.config.ts `precompress`): a copy per coding beside each text file.
  const dist = harness.deps.config.consoleDistDir;
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  const files: Array<[string, string]> = [
    ['index.html', html],
    ['assets/index-abc123.js', script],
  ];
  for (const [name, content] of files) {
    await writeFile(path.join(dist, name), content);
    await writeFile(path.join(dist, `${name}.br`), brotliCompressSync(content));
    await writeFile(path.join(dist, `${name}.gz`), gzipSync(content));
  }
  // Too small for the build to compress: no copies.
  await writeFile(path.join(dist, 'assets', 'tiny-abc123.js'), 'export {};');
});
afterAll(() => harness.close());

const request = (pathname: string, headers: Record<string, string> = {}) =>
  Promise.resolve(harness.app.request(pathname, { headers }));

async function decoded(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const coding = response.headers.get('Content-Encoding');
  if (coding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(bytes).toString('utf8');
  expect(coding).toBeNull();
  return bytes.toString('utf8');
}

describe('choosing a coding from Accept-Encoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['gzip;q=0, br;q=0', null],
    ['identity', null],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['br;q=banana, gzip;q=0.2', 'gzip'],
    ['br;q=2', null],
    ['', null],
  ])('%j gives %s', (header, coding) => {
    expect(negotiateContentCoding(header)).toBe(coding);
  });

  it('gives nothing without the header, and picks among the codings at hand', () => {
    expect(negotiateContentCoding(undefined)).toBeNull();
    expect(negotiateContentCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateContentCoding('br', ['gzip'])).toBeNull();
  });
});

describe('the console files', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', null],
    ['br;q=0, gzip;q=0', null],
  ])(
    'a hashed script asked with %j travels as %s, cached for a year, the same bytes decoded',
    async (accept, coding) => {
      const response = await request('/account/assets/index-abc123.js', { 'Accept-Encoding': accept });
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Encoding')).toBe(coding);
      expect(response.headers.get('Vary')).toBe('Accept-Encoding');
      expect(response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      expect(await decoded(response)).toBe(script);
    },
  );

  it('sends the page of every console route compressed and revalidated', async () => {
    const response = await request('/account/accounts', { 'Accept-Encoding': 'gzip, br' });
    expect(response.headers.get('Content-Encoding')).toBe('br');
    expect(response.headers.get('Vary')).toBe('Accept-Encoding');
    expect(response.headers.get('Cache-Control')).toBe('no-cache');
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(await decoded(response)).toBe(html);
  });

  it('sends a file without copies as it is, with no Vary', async () => {
    const response = await request('/account/assets/tiny-abc123.js', { 'Accept-Encoding': 'br, gzip' });
    expect(response.headers.get('Content-Encoding')).toBeNull();
    expect(response.headers.get('Vary')).toBeNull();
    expect(await response.text()).toBe('export {};');
  });

  it('sends a file changed after its copies were made as it now is', async () => {
    const dist = harness.deps.config.consoleDistDir;
    const changed = 'self.addEventListener("install", () => {});\n'.repeat(40);
    await writeFile(path.join(dist, 'sw.js.br'), brotliCompressSync('// an earlier build'.repeat(80)));
    await writeFile(path.join(dist, 'sw.js.gz'), gzipSync('// an earlier build'.repeat(80)));
    const later = new Date(Date.now() + 5_000);
    await writeFile(path.join(dist, 'sw.js'), changed);
    await utimes(path.join(dist, 'sw.js'), later, later);
    const response = await request('/account/sw.js', { 'Accept-Encoding': 'br, gzip' });
    expect(response.headers.get('Content-Encoding')).toBeNull();
    expect(await response.text()).toBe(changed);
  });

  it('still answers 404 for a missing script, whatever the coding', async () => {
    const response = await request('/account/assets/gone-abc123.js', { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Encoding')).toBeNull();
  });
});

describe('JSON answers', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', null],
  ])('a large answer asked with %j travels as %s and decodes to the same JSON', async (accept, coding) => {
    const plain = await request(apiPaths.openApi);
    const expected = await plain.text();
    expect(expected.length).toBeGreaterThan(10_000);

    const response = await request(apiPaths.openApi, { 'Accept-Encoding': accept });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Encoding')).toBe(coding);
    expect(response.headers.get('Vary')).toContain('Accept-Encoding');
    if (coding) {
      const body = Buffer.from(await response.clone().arrayBuffer());
      expect(response.headers.get('Content-Length')).toBe(String(body.byteLength));
      expect(body.byteLength).toBeLessThan(expected.length / 3);
    }
    expect(await decoded(response)).toBe(expected);
  });

  it('leaves a small answer as it is', async () => {
    const response = await request(`${apiPaths.users.list}/no-such-path-0000`, { 'Accept-Encoding': 'br' });
    expect(response.headers.get('Content-Encoding')).toBeNull();
    const text = await response.text();
    expect(text.length).toBeLessThan(1024);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('compresses a signed-in list answer, which still reads as the same list', async () => {
    const headers = { Authorization: `Bearer ${admin.token}` };
    const url = `${apiPaths.users.list}?limit=50`;
    const plain = await (await request(url, headers)).text();
    expect(plain.length).toBeGreaterThan(1024);
    const response = await request(url, { ...headers, 'Accept-Encoding': 'gzip' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Encoding')).toBe('gzip');
    expect(JSON.parse(await decoded(response))).toEqual(JSON.parse(plain));
  });

  it('answers HEAD without a coded body', async () => {
    const response = await harness.app.request(apiPaths.openApi, {
      method: 'HEAD',
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('Content-Encoding')).toBeNull();
  });
});

describe('streamed exports', () => {
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=0', null],
  ])('the users CSV asked with %j travels as %s and decodes to the same file', async (accept, coding) => {
    const headers = { Authorization: `Bearer ${admin.token}` };
    const url = `${apiPaths.users.export}?sort=user_name:asc`;
    const plain = await request(url, headers);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    const expected = await plain.text();
    expect(expected).toContain('field-user-59');

    const response = await request(url, { ...headers, 'Accept-Encoding': accept });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Encoding')).toBe(coding);
    expect(response.headers.get('Vary')).toBe('Accept-Encoding');
    expect(await decoded(response)).toBe(expected);
  });
});
