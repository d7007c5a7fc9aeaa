import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { licenceCommand } from '../../../server/licence/first-start.ts';

const run = promisify(execFile);
let dataDir: string | undefined;

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the licence command a fresh platform prints', () => {
  it('runs as printed, makes the vendor key in the server’s data directory and writes the licence there', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'first start '));
    const command = licenceCommand(dataDir);
    expect(command).toContain(`--data-dir ${JSON.stringify(dataDir)}`);
    await run('sh', ['-c', command], { cwd: process.cwd() });
    const licence = await readFile(path.join(dataDir, 'licence.txt'), 'utf8');
    expect(licence.trim()).toMatch(/^[A-Za-z0-9_.\-=+/\s]+$/);
    expect(licence.length).toBeGreaterThan(100);
    expect((await readdir(dataDir)).some((name) => name.endsWith('.pub.pem'))).toBe(true);
  }, 60_000);
});
