import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

export function softHsmInstalled(): boolean {
  return spawnSync('sh', ['-c', 'command -v softhsm2-util']).status === 0;
}

/**
 * A SoftHSM2 token of the benchmark's own under `dir`, with its own configuration. The module reads
 * SOFTHSM2_CONF when it is initialised, in this process, so the variable is set here.
 */
export async function initSoftHsmToken(dir: string, label: string, pin: string): Promise<void> {
  const tokens = path.join(dir, 'tokens');
  mkdirSync(tokens, { recursive: true });
  const conf = path.join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  await run('softhsm2-util', [
    '--init-token',
    '--free',
    '--label',
    label,
    '--so-pin',
    '13579246',
    '--pin',
    pin,
  ]);
}
