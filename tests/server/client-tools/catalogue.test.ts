import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { type ClientTool, clientToolListSchema } from '../../../contract/schemas/client-tools.ts';
import { planAgentPackages } from '../../../server/client-tools/agent-package.ts';
import { createCatalogue } from '../../../server/client-tools/catalogue.ts';
import { ensureAgentPackages, publishAgentPackages } from '../../../server/client-tools/publish.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { agentSourceTree } from './agent-sources.ts';

let harness: TestApp;
let catalogueDir: string;
let sourceRoot: string;
let buildDir: string;

/**
 * Stands in for `npm run agent:package`: puts a package where the build directory keeps it for the
 * current sources, with bytes of its own (building real ones is tests/agent/packages' part).
 */
async function buildPlaceholders(label: string): Promise<void> {
  const { plan } = await planAgentPackages({ root: sourceRoot, version: '1.1.4', buildDir });
  for (const planned of plan) {
    await mkdir(path.dirname(planned.file), { recursive: true });
    await writeFile(planned.file, `${planned.target.id} package, ${label}`);
  }
}

function digest(algorithm: 'sha1' | 'sha256', bytes: Uint8Array): string {
  return createHash(algorithm).update(bytes).digest('hex');
}

async function putFile(relative: string, content: string | Uint8Array): Promise<void> {
  const target = path.join(catalogueDir, relative);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, content);
}

async function list(): Promise<ClientTool[]> {
  const response = await harness.app.request(apiPaths.clientTools.list);
  expect(response.status).toBe(200);
  return v.parse(clientToolListSchema, await response.json()).items;
}

beforeAll(async () => {
  catalogueDir = await mkdtemp(path.join(tmpdir(), 'client-tools-'));
  sourceRoot = await agentSourceTree();
  buildDir = await mkdtemp(path.join(tmpdir(), 'trust-assistant-build-'));
  harness = await createTestApp({
    config: { clientToolsDir: catalogueDir, publicUrl: 'https://console.example.com' },
  });
  await buildPlaceholders('first sources');
  await ensureAgentPackages(
    catalogueDir,
    { info: () => undefined, warn: console.warn },
    {
      root: sourceRoot,
      version: '1.1.4',
      buildDir,
    },
  );
  await putFile('desktop-client-windows/3.3.1/desktop-client-3.3.1.msi', 'desktop client 3.3.1');
  await putFile('desktop-client-windows/3.3.0/desktop-client-3.3.0.msi', 'desktop client 3.3.0');
  await putFile(
    'catalogue.json',
    JSON.stringify({
      tools: [
        {
          id: 'desktop-client-windows',
          name: 'Desktop client',
          os: 'windows',
          arch: 'x64',
          versions: ['3.3.0', '3.3.1'],
          files: [
            { name: 'desktop-client-3.3.0.msi', folder: '3.3.0', label: 'Windows installer' },
            { name: 'desktop-client-3.3.1.msi', folder: '3.3.1', label: 'Windows installer' },
            { name: 'desktop-client-3.3.1-arm64.msi', folder: '3.3.1', label: 'Windows installer (Arm)' },
          ],
        },
        {
          id: 'sensor-linux',
          name: 'Sensor',
          os: 'linux',
          arch: 'x64',
          versions: ['2.0.0'],
          files: [{ name: 'sensor-2.0.0.deb', folder: '2.0.0', label: 'Debian package' }],
        },
      ],
    }),
  );
});

afterAll(async () => {
  await harness.close();
  await rm(catalogueDir, { recursive: true, force: true });
  await rm(sourceRoot, { recursive: true, force: true });
  await rm(buildDir, { recursive: true, force: true });
});

describe('the client-tools catalogue', () => {
  it('lists the trust assistant per system and the operator tools whose files are present, to anyone', async () => {
    const response = await harness.app.request(apiPaths.clientTools.list);
    // Names and hashes only: where the files lie on the server is nobody's business.
    expect(await response.text()).not.toContain(catalogueDir);
    const items = await list();
    expect(items.map((tool) => `${tool.id} ${tool.versions.join(',')}`)).toEqual([
      'desktop-client-windows 3.3.1,3.3.0',
      'trust-assistant-linux-x64 1.1.4',
      'trust-assistant-mac-arm64 1.1.4',
      'trust-assistant-mac-x64 1.1.4',
      'trust-assistant-windows-x64 1.1.4',
    ]);
    const desktop = items.find((tool) => tool.id === 'desktop-client-windows');
    expect(desktop).toMatchObject({ name: 'Desktop client', os: 'windows', arch: 'x64' });
    // The file missing from the directory is left out, and so is the tool with no file at all.
    expect(desktop?.files.map((file) => file.name)).toEqual([
      'desktop-client-3.3.1.msi',
      'desktop-client-3.3.0.msi',
    ]);
    expect(desktop?.link).toBe(
      `https://console.example.com${apiPaths.clientTools.file('desktop-client-windows', '3.3.1', 'desktop-client-3.3.1.msi')}`,
    );
    expect(items.find((tool) => tool.id === 'trust-assistant-mac-arm64')).toMatchObject({
      name: 'Trust assistant',
      os: 'mac',
      arch: 'arm64',
      files: [
        expect.objectContaining({
          name: 'trust-assistant-1.1.4-mac-arm64.tar.gz',
          folder: '1.1.4',
          label: 'macOS arm64 package (.tar.gz)',
        }),
      ],
    });
  });

  it('gives each file the SHA-1 and SHA-256 of the bytes it serves', async () => {
    for (const tool of await list()) {
      for (const file of tool.files) {
        const response = await harness.app.request(
          apiPaths.clientTools.file(tool.id, file.folder, file.name),
        );
        expect(response.status).toBe(200);
        const bytes = new Uint8Array(await response.arrayBuffer());
        expect(digest('sha1', bytes)).toBe(file.sha1);
        expect(digest('sha256', bytes)).toBe(file.sha256);
        expect(bytes.length).toBe(file.size);
      }
    }
  });

  it('serves a file as an attachment of its type, cached by its hash', async () => {
    const [linux] = (await list()).filter((tool) => tool.id === 'trust-assistant-linux-x64');
    const file = linux?.files[0];
    if (linux === undefined || file === undefined) throw new Error('No Linux package listed.');
    const address = apiPaths.clientTools.file(linux.id, file.folder, file.name);
    const response = await harness.app.request(address);
    expect(response.headers.get('Content-Type')).toBe('application/gzip');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="${file.name}"`);
    expect(response.headers.get('ETag')).toBe(`"${file.sha256}"`);
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    const again = await harness.app.request(address, { headers: { 'If-None-Match': `"${file.sha256}"` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await harness.app.request(address, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Length')).toBe(String(file.size));
    expect(await head.text()).toBe('');
  });

  it('answers 404 for any name the catalogue does not list, traversal included', async () => {
    const base = apiPaths.clientTools.list;
    for (const address of [
      `${base}/desktop-client-windows/3.3.1/desktop-client-3.3.1-arm64.msi`,
      `${base}/desktop-client-windows/3.3.1/..%2F..%2Fcatalogue.json`,
      `${base}/desktop-client-windows/..%2F..%2F/catalogue.json`,
      `${base}/..%2F..%2F..%2Fetc/passwd/x`,
      `${base}/desktop-client-windows/3.3.1/.hidden`,
      `${base}/trust-assistant-linux-x64/1.1.4/trust-assistant-1.1.4-linux-x64.tar.gz.partial`,
      `${base}/desktop-client-windows/3.3.1/..`,
    ]) {
      const response = await harness.app.request(address);
      expect(response.status, address).toBe(404);
      expect(response.headers.get('Content-Disposition'), address).toBeNull();
    }
  });

  it('hashes a file again once it changes', async () => {
    const before = (await list()).find((tool) => tool.id === 'desktop-client-windows')?.files[0];
    // Same size, so only the modification time tells the change.
    await putFile('desktop-client-windows/3.3.1/desktop-client-3.3.1.msi', 'desktop client 3.3.X');
    const later = new Date(Date.now() + 60_000);
    await utimes(
      path.join(catalogueDir, 'desktop-client-windows/3.3.1/desktop-client-3.3.1.msi'),
      later,
      later,
    );
    const after = (await list()).find((tool) => tool.id === 'desktop-client-windows')?.files[0];
    expect(after?.sha256).toBe(digest('sha256', Buffer.from('desktop client 3.3.X')));
    expect(after?.sha256).not.toBe(before?.sha256);
  });

  it('lists a manifest file once it is put in place', async () => {
    await putFile('sensor-linux/2.0.0/sensor-2.0.0.deb', 'sensor');
    const sensor = (await list()).find((tool) => tool.id === 'sensor-linux');
    expect(sensor?.files).toEqual([
      {
        name: 'sensor-2.0.0.deb',
        folder: '2.0.0',
        label: 'Debian package',
        sha1: digest('sha1', Buffer.from('sensor')),
        sha256: digest('sha256', Buffer.from('sensor')),
        size: 6,
      },
    ]);
    const response = await harness.app.request(
      apiPaths.clientTools.file('sensor-linux', '2.0.0', 'sensor-2.0.0.deb'),
    );
    expect(response.headers.get('Content-Type')).toBe('application/vnd.debian.binary-package');
  });

  it('says once which manifest file is missing', async () => {
    const warnings: string[] = [];
    const catalogue = createCatalogue({
      directory: catalogueDir,
      publicUrl: 'https://console.example.com',
      warn: (message) => warnings.push(message),
    });
    await catalogue.list();
    await catalogue.list();
    expect(warnings).toEqual([
      `catalogue.json lists desktop-client-windows/3.3.1/desktop-client-3.3.1-arm64.msi, which is not in ${catalogueDir}; it is left out.`,
    ]);
  });

  it('keeps listing the trust assistant when the manifest is not valid', async () => {
    await putFile('catalogue.json', JSON.stringify({ tools: [{ id: '../escape', name: 'x' }] }));
    expect((await list()).map((tool) => tool.id)).toEqual([
      'trust-assistant-linux-x64',
      'trust-assistant-mac-arm64',
      'trust-assistant-mac-x64',
      'trust-assistant-windows-x64',
    ]);
  });
});

describe('publishing the trust agent packages into the catalogue', () => {
  const options = () => ({ root: sourceRoot, version: '1.1.4', buildDir, cachedOnly: true });

  it('rewrites nothing when the sources are unchanged', async () => {
    expect(await publishAgentPackages(catalogueDir, options())).toEqual({ written: [], missing: [] });
  });

  it('publishes nothing built from other sources, and says which packages need building', async () => {
    await writeFile(path.join(sourceRoot, 'agent/version.ts'), "export const AGENT_VERSION = '1.1.4';\n");
    expect(await publishAgentPackages(catalogueDir, options())).toEqual({
      written: [],
      missing: ['linux-x64', 'mac-arm64', 'mac-x64', 'windows-x64'],
    });
    const said: string[] = [];
    await ensureAgentPackages(
      catalogueDir,
      { info: (line) => said.push(line), warn: (line) => said.push(line) },
      options(),
    );
    expect(said).toEqual([
      "The trust agent's packages for linux-x64, mac-arm64, mac-x64, windows-x64 are not built for these sources yet: npm start builds them in the background, npm run agent:package on its own.",
    ]);
  });

  it('replaces the packages of the version once they are built for the new sources, and the hashes follow', async () => {
    const before = (await list()).find((tool) => tool.id === 'trust-assistant-linux-x64')?.files[0]?.sha256;
    await buildPlaceholders('changed sources');
    const { written, missing } = await publishAgentPackages(catalogueDir, options());
    expect(written).toHaveLength(4);
    expect(missing).toEqual([]);
    const after = (await list()).find((tool) => tool.id === 'trust-assistant-linux-x64')?.files[0]?.sha256;
    expect(after).not.toBe(before);
  });
});
