import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serverDataDir } from './environment.ts';

const run = promisify(execFile);

/**
 * A licence valid for a year from the licence CLI. The CLI leaves its vendor public key in the data
 * directory, and the server trusts the key it finds there, so only the server of this run accepts it.
 */
export async function issueLicence(dataDir: string = serverDataDir()): Promise<string> {
  const { stdout } = await run('npm', [
    'run',
    '--silent',
    'licence',
    '--',
    '--days',
    '365',
    '--data-dir',
    dataDir,
  ]);
  const licence = stdout.trim();
  if (!licence) throw new Error('The licence CLI printed nothing.');
  return licence;
}
