import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { type ClientTool, clientToolListSchema } from '../../../contract/schemas/client-tools.ts';
import { createCatalogue } from '../../../server/client-tools/catalogue.ts';
import { publishAgentPackages } from '../../../server/client-tools/publish.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { agentSourceTree } from './agent-sources.ts';

let harness: TestApp;
let catalogueDir: string;
let sourceRoot: string;

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
  harness = await createTestApp({
    config: { clientToolsDir: catalogueDir, publicUrl: 'https://console.example.com' },
  });
  await publishAgentPackages(catalogueDir, { root: sourceRoot, version: '1.1.4' });
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
});

describe('the client-tools catalogue', () => {
  it('lists the trust assistant per system and the operator tools whose files are present, to anyone', async () => {
    const items = await list();
    expect(items.map((tool) => `${tool.id} ${tool.versions.join(',')}`)).toEqual([
      'desktop-client-windows 3.3.1,3.3.0',
      'trust-assistant-linux 1.1.4',
      'trust-assistant-mac 1.1.4',
      'trust-assistant-windows 1.1.4',
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
    expect(items.find((tool) => tool.id === 'trust-assistant-mac')).toMatchObject({
      name: 'Trust assistant',
      arch: 'any',
      files: [expect.objectContaining({ name: 'trust-assistant-1.1.4-mac.tar.gz', folder: '1.1.4' })],
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
    const [linux] = (await list()).filter((tool) => tool.id === 'trust-assistant-linux');
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
  });

  it('answers 404 for any name the catalogue does not list, traversal included', async () => {
    const base = apiPaths.clientTools.list;
    for (const address of [
      `${base}/desktop-client-windows/3.3.1/desktop-client-3.3.1-arm64.msi`,
      `${base}/desktop-client-windows/3.3.1/..%2F..%2Fcatalogue.json`,
      `${base}/desktop-client-windows/..%2F..%2F/catalogue.json`,
      `${base}/..%2F..%2F..%2Fetc/passwd/x`,
      `${base}/desktop-client-windows/3.3.1/.hidden`,
      `${base}/trust-assistant-linux/1.1.4/trust-assistant-1.1.4-linux.tar.gz.partial`,
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
      'trust-assistant-linux',
      'trust-assistant-mac',
      'trust-assistant-windows',
    ]);
  });
});

describe('building the trust agent packages into the catalogue', () => {
  it('rewrites nothing when the sources are unchanged', async () => {
    expect(await publishAgentPackages(catalogueDir, { root: sourceRoot, version: '1.1.4' })).toEqual([]);
  });

  it('replaces the packages of the version when the sources change, and the hashes follow', async () => {
    const before = (await list()).find((tool) => tool.id === 'trust-assistant-linux')?.files[0]?.sha256;
    await writeFile(path.join(sourceRoot, 'agent/version.ts'), "export const AGENT_VERSION = '1.1.4';\n");
    const written = await publishAgentPackages(catalogueDir, { root: sourceRoot, version: '1.1.4' });
    expect(written).toHaveLength(3);
    const after = (await list()).find((tool) => tool.id === 'trust-assistant-linux')?.files[0]?.sha256;
    expect(after).not.toBe(before);
  });
});
