import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_NAMES, PLATFORM_LOCALES } from '../../../contract/locales.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiErrorBody } from '../../../contract/schemas/common.ts';
import { CONTENT_SECURITY_POLICY } from '../../../server/http/security-headers.ts';
import { MAX_BODY_BYTES } from '../../../server/http/validate.ts';
import { REFERENCE_SCRIPT_PATH } from '../../../server/openapi/reference-page.ts';
import { operationsOf, servedDocuments } from '../openapi/documented.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
  const dist = harness.deps.config.consoleDistDir;
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Console</title>');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1);');
  await writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
});
afterAll(() => harness.close());

function request(pathname: string, init?: RequestInit): Promise<Response> {
  return Promise.resolve(harness.app.request(pathname, init));
}

describe('security headers', () => {
  it.each([apiPaths.locales, '/account/accounts', '/account/assets/index-abc123.js', '/nowhere'])(
    'are on %s',
    async (pathname) => {
      const response = await request(pathname);
      expect(response.headers.get('Content-Security-Policy')).toContain("default-src 'self'");
      expect(response.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(response.headers.get('Referrer-Policy')).toBe('no-referrer');
      expect(response.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    },
  );
});

describe('HTTPS only, once the browser reached the console over HTTPS', () => {
  it('asks browsers to keep to HTTPS when served over HTTPS', async () => {
    const response = await request('https://console.example/account/api/v1/locales');
    expect(response.headers.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('says nothing of it over plain HTTP, where browsers would ignore it anyway', async () => {
    const response = await request(apiPaths.locales);
    expect(response.headers.get('Strict-Transport-Security')).toBeNull();
  });

  it('believes X-Forwarded-Proto only from a trusted TLS proxy', async () => {
    const forwarded = { headers: { 'X-Forwarded-Proto': 'https' } };
    expect((await request(apiPaths.locales, forwarded)).headers.get('Strict-Transport-Security')).toBeNull();
    const proxied = await createTestApp({ config: { trustProxy: true } });
    try {
      const response = await proxied.app.request(apiPaths.locales, forwarded);
      expect(response.headers.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await proxied.close();
    }
  });
});

describe('a proxy the server does not trust', () => {
  it('is reported once in the log, and not at all when TRUST_PROXY is on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const untrusted = await createTestApp();
      const trusted = await createTestApp({ config: { trustProxy: true } });
      try {
        const forwarded = { headers: { 'X-Forwarded-For': '203.0.113.7' } };
        await trusted.app.request(apiPaths.locales, forwarded);
        expect(warn).not.toHaveBeenCalled();
        await untrusted.app.request(apiPaths.locales);
        expect(warn).not.toHaveBeenCalled();
        await untrusted.app.request(apiPaths.locales, forwarded);
        await untrusted.app.request(apiPaths.locales, forwarded);
        expect(warn).toHaveBeenCalledTimes(1);
        expect(String(warn.mock.calls[0]?.[0])).toContain('TRUST_PROXY');
      } finally {
        await Promise.all([untrusted.close(), trusted.close()]);
      }
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the console', () => {
  it.each(['/', '/account'])('redirects %s to the accounts list', async (pathname) => {
    const response = await request(pathname);
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/account/accounts');
  });

  it('answers the console base with index.html, whose router leads on to the accounts list', async () => {
    const response = await request('/account/');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/html');
  });

  it('answers index.html for a client route, revalidated on every load', async () => {
    const response = await request('/account/accounts/123/organizations');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/html');
    expect(response.headers.get('Cache-Control')).toBe('no-cache');
    expect(await response.text()).toContain('<title>Console</title>');
  });

  it('serves hashed assets as immutable and the service worker as revalidated', async () => {
    const asset = await request('/account/assets/index-abc123.js');
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('Content-Type')).toContain('text/javascript');
    const worker = await request('/account/sw.js');
    expect(worker.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    expect((await request('/account/assets/gone-999.js')).status).toBe(404);
  });

  it('does not serve files outside the console directory', async () => {
    const response = await request('/account/..%2f..%2fpackage.json');
    expect(await response.text()).not.toContain('"name"');
  });

  it('answers unknown API paths with a JSON 404, never the page', async () => {
    const response = await request('/account/ui-api/v1/no-such-thing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { status: 404, message: 'Not found.', code: 'notFound' },
    });
    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });
});

describe('bad request bodies', () => {
  it('answers malformed JSON with 400', async () => {
    const response = await request(apiPaths.setup.licence, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"body": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { status: 400, message: 'Request body is not valid JSON.', code: 'malformed' },
    });
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await request(apiPaths.setup.licence, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'body=licence',
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as ApiErrorBody).error).toMatchObject({
      status: 415,
      code: 'unsupportedMediaType',
    });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await request(apiPaths.setup.licence, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as ApiErrorBody).error).toMatchObject({ status: 413, code: 'tooLarge' });
  });

  it.each([null, [], 'text', 42])(
    'answers the JSON value %j instead of an object with 400',
    async (value) => {
      const response = await request(apiPaths.setup.user, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(value),
      });
      expect(response.status).toBe(400);
    },
  );
});

describe('GET locales', () => {
  it('lists every platform locale with its native name', async () => {
    const response = await request(apiPaths.locales);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      items: PLATFORM_LOCALES.map((code) => ({ id: code, name: LANGUAGE_NAMES[code] })),
      total: PLATFORM_LOCALES.length,
    });
  });
});

describe('API reference', () => {
  it('serves the public and the console API as OpenAPI 3.1 documents, each operation with its schemas', async () => {
    for (const path of [apiPaths.openApi, apiPaths.consoleOpenApi]) {
      const response = await request(path);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0');
    }
    const documents = await servedDocuments(harness.app);
    const operations = [...operationsOf(documents.public), ...operationsOf(documents.console)];
    expect(operations.length).toBeGreaterThan(150);
    const setupUser = operations.find(
      (operation) => operation.method === 'post' && operation.path === apiPaths.setup.user,
    );
    const body = setupUser?.described.requestBody as
      | { content: Record<string, { schema: unknown }> }
      | undefined;
    expect(body?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['first_name', 'last_name', 'email', 'user_name', 'password', 'repeatedPassword'],
      properties: { password: { type: 'string', minLength: 12, maxLength: 255 } },
    });
  });

  it('renders the reference page with same-origin scripts only and no inline script or style', async () => {
    const response = await request(apiPaths.apiReference);
    expect(response.status).toBe(200);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes?.match(/src="([^"]+)"/)?.[1])).toEqual([
      expect.stringMatching(new RegExp(`^${apiPaths.apiReference}/scalar-[0-9a-f]{16}\\.js$`)),
      REFERENCE_SCRIPT_PATH,
    ]);
    expect(scripts.every(([, , text]) => text === '')).toBe(true);
    expect(html).not.toMatch(/<style|style=/i);
    // Its own policy: inline styles for the renderer, and still no script but same-origin files and
    // no connection to another origin; every other API path keeps the strict one.
    const policy = response.headers.get('Content-Security-Policy') ?? '';
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    const document = await request(apiPaths.openApi);
    expect(document.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY);

    const renderer = await request(scripts[0]?.[1]?.match(/src="([^"]+)"/)?.[1] ?? '', {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(renderer.status).toBe(200);
    expect(renderer.headers.get('Content-Type')).toContain('text/javascript');
    expect(renderer.headers.get('Content-Encoding')).toBe('br');
    expect(renderer.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    const start = await request(REFERENCE_SCRIPT_PATH);
    expect(await start.text()).toContain(apiPaths.consoleOpenApi);
    expect((await request(`${apiPaths.apiReference}/scalar-0000000000000000.js`)).status).toBe(404);
  });
});
