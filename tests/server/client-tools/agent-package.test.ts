import { rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAgentPackages } from '../../../server/client-tools/agent-package.ts';
import { agentSourceTree } from './agent-sources.ts';

/** The entries of a gzip-compressed ustar archive: path, mode and content. */
function readTarGzip(bytes: Buffer): Map<string, { mode: number; content: Buffer }> {
  const tar = gunzipSync(bytes);
  const entries = new Map<string, { mode: number; content: Buffer }>();
  let offset = 0;
  while (offset + 512 <= tar.length && tar[offset] !== 0) {
    const field = (start: number, length: number) =>
      tar
        .subarray(offset + start, offset + start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = `${prefix === '' ? '' : `${prefix}/`}${field(0, 100)}`;
    const size = Number.parseInt(field(124, 12), 8);
    const content = tar.subarray(offset + 512, offset + 512 + size);
    entries.set(name, { mode: Number.parseInt(field(100, 8), 8), content: Buffer.from(content) });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

let root: string;

beforeAll(async () => {
  root = await agentSourceTree();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the trust agent package builder', () => {
  it('builds the same bytes every time from the same sources, whenever their files were touched', async () => {
    const first = await buildAgentPackages({ root, version: '9.9.9' });
    const touched = new Date(Date.now() + 3_600_000);
    await utimes(path.join(root, 'agent/main.ts'), touched, touched);
    const second = await buildAgentPackages({ root, version: '9.9.9' });
    expect(first.map((built) => built.os)).toEqual(['linux', 'mac', 'windows']);
    for (const [index, built] of first.entries()) {
      expect(built.bytes.equals(second[index]?.bytes ?? Buffer.alloc(0))).toBe(true);
    }
    expect(first.map((built) => built.fileName)).toEqual([
      'trust-assistant-9.9.9-linux.tar.gz',
      'trust-assistant-9.9.9-mac.tar.gz',
      'trust-assistant-9.9.9-windows.tar.gz',
    ]);
  });

  it('packs the entry, the contract modules it reaches and the service files of each system', async () => {
    const packages = await buildAgentPackages({ root, version: '9.9.9' });
    const contents = (os: string) =>
      readTarGzip(packages.find((built) => built.os === os)?.bytes ?? Buffer.alloc(0));
    const linux = contents('linux');
    const folder = 'trust-assistant-9.9.9';
    expect([...linux.keys()].filter((name) => !name.endsWith('/'))).toEqual([
      `${folder}/README.md`,
      `${folder}/agent/main.ts`,
      `${folder}/agent/service/install.sh`,
      `${folder}/agent/service/trust-assistant-url.desktop`,
      `${folder}/agent/service/trust-assistant.service`,
      `${folder}/agent/version.ts`,
      `${folder}/contract/base.ts`,
      `${folder}/contract/ports.ts`,
      `${folder}/package.json`,
    ]);
    expect(linux.get(`${folder}/agent/service/install.sh`)?.mode).toBe(0o755);
    const unit = linux.get(`${folder}/agent/service/trust-assistant.service`)?.content.toString();
    expect(unit).toMatch(/^ExecStart=.*node --import tsx agent\/main\.ts$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(linux.get(`${folder}/agent/service/trust-assistant-url.desktop`)?.content.toString()).toMatch(
      /^MimeType=x-scheme-handler\/trust-assistant;$/m,
    );

    const mac = contents('mac');
    const plist = mac
      .get(`${folder}/agent/service/com.trustconsole.trust-assistant.plist`)
      ?.content.toString();
    expect(plist).toContain('<key>RunAtLoad</key>');
    expect(plist).toContain('<key>KeepAlive</key>');
    expect(mac.has(`${folder}/agent/service/install.sh`)).toBe(true);
    expect(mac.has(`${folder}/agent/service/trust-assistant.service`)).toBe(false);

    const windows = contents('windows');
    expect(windows.has(`${folder}/agent/main.ts`)).toBe(true);
    expect([...windows.keys()].some((name) => name.includes('/agent/service/'))).toBe(false);
  });

  it('writes a package.json with only the run-time dependencies and a start script', async () => {
    const [built] = await buildAgentPackages({ root, version: '9.9.9' });
    const manifest = JSON.parse(
      readTarGzip(built?.bytes ?? Buffer.alloc(0))
        .get('trust-assistant-9.9.9/package.json')
        ?.content.toString() ?? '{}',
    );
    // hono is imported for a type only and by a contract module the agent does not reach; react not at all.
    expect(manifest.dependencies).toEqual({ tsx: '4.23.0', valibot: '1.5.0' });
    expect(manifest.scripts).toEqual({ start: 'node --import tsx agent/main.ts' });
    expect(manifest.version).toBe('9.9.9');
  });

  it('refuses sources without the agent entry', async () => {
    await expect(buildAgentPackages({ root: `${root}/agent` })).rejects.toThrow(
      /agent\/main\.ts does not exist/,
    );
  });
});
