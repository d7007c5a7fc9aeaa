import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  consolePagePolicy,
  offlinePagePolicy,
} from '../../../server/http/security-headers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** The files the service worker and the installed app need, served as browsers require them. */
let harness: TestApp;
const offlinePage = path.resolve('public/offline.html');

beforeAll(async () => {
  harness = await createTestApp();
  const dist = harness.deps.config.consoleDistDir;
  await mkdir(dist, { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Console</title>');
  await writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(path.join(dist, 'manifest.webmanifest'), '{"name":"Trust console"}');
  await copyFile(offlinePage, path.join(dist, 'offline.html'));
});
afterAll(() => harness.close());

const request = (pathname: string) => Promise.resolve(harness.app.request(pathname));

describe('files of the installed console', () => {
  it('serves the worker as JavaScript that is revalidated on every update check', async () => {
    const response = await request('/account/sw.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('serves the web app manifest with its content type', async () => {
    const response = await request('/account/manifest.webmanifest');
    expect(response.headers.get('Content-Type')).toBe('application/manifest+json');
    expect(response.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('lets the console register its worker and manifest from its own origin', async () => {
    const policy = (await request('/account/accounts')).headers.get('Content-Security-Policy');
    expect(policy).toBe(CONTENT_SECURITY_POLICY);
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
  });
});

describe('the console page with its inline stylesheet and sign-in preview script', () => {
  const script = 'document.getElementById("sign-in-preview").hidden = false;';
  const style = '.boot{display:grid}';
  beforeAll(async () => {
    await writeFile(
      path.join(harness.deps.config.consoleDistDir, 'index.html'),
      `<!doctype html><title>Console</title><script type="module" src="/account/assets/index.js"></script>` +
        `<link rel="stylesheet" href="/account/assets/start.css" disabled><style>${style}</style>` +
        `<div id="sign-in-preview" hidden></div><script>${script}</script>`,
    );
  });

  it('allows exactly its inline style and script, by their hashes, at every address and as index.html', async () => {
    const scriptHash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    const styleHash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
    for (const address of ['/account/', '/account/accounts', '/account/index.html']) {
      const policy = (await request(address)).headers.get('Content-Security-Policy') ?? '';
      expect(policy.split('; '), address).toContain(`script-src 'self' ${scriptHash}`);
      expect(policy.split('; '), address).toContain(`style-src 'self' ${styleHash}`);
      expect(policy.replace(` ${scriptHash}`, '').replace(` ${styleHash}`, ''), address).toBe(
        CONTENT_SECURITY_POLICY,
      );
    }
  });

  it('allows no inline style or script where the page has none', () => {
    expect(consolePagePolicy('<script src="/account/assets/index.js"></script>')).toBe(
      CONTENT_SECURITY_POLICY,
    );
  });
});

describe('the offline page', () => {
  it('allows exactly its own inline style, no script and nothing from elsewhere', async () => {
    const response = await request('/account/offline.html');
    const html = await response.text();
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(css).digest('base64');

    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-cache');
    const policy = response.headers.get('Content-Security-Policy') ?? '';
    expect(policy.split('; ')).toEqual([
      "default-src 'none'",
      `style-src 'sha256-${hash}'`,
      "img-src 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ]);
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });

  it('is static English text with a way back to the console', async () => {
    const html = await readFile(offlinePage, 'utf8');
    expect(html).not.toMatch(/<script|\son[a-z]+=/i);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Signing in needs a connection');
    expect(html).toMatch(/<a href="\/account\/">Try again<\/a>/);
  });

  it('allows no style at all when the page has none', () => {
    expect(offlinePagePolicy('<p>plain</p>')).toContain("style-src 'none'");
  });
});
