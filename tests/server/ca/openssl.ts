import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/**
 * Whether every command the checks named by `checks` run is on the PATH. A developer's machine
 * without one skips those checks with a warning; with `CI` set the suite fails instead, since CI
 * installs openssl, gnutls-bin, softhsm2 and opensc (.ci/run) and a pass without them proves less.
 */
export function toolsAvailable(checks: string, ...commands: string[]): boolean {
  const missing = commands.filter((command) => !hasCommand(command));
  if (missing.length === 0) return true;
  const message = `${missing.join(' and ')} not installed: ${checks}`;
  if (process.env.CI) throw new Error(`${message} cannot run, and CI runs every check.`);
  console.warn(`${message} are skipped.`);
  return false;
}

/** Files in a temporary directory, removed again by `cleanup`. */
export async function scratchFiles(): Promise<{
  write: (name: string, content: string | Uint8Array) => Promise<string>;
  dir: string;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ca-test-'));
  return {
    dir,
    write: async (name, content) => {
      const file = path.join(dir, name);
      await writeFile(file, content);
      return file;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Runs a tool; resolves with its exit status and both outputs, never rejects on a failure status. */
export async function tool(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { env: { ...process.env, ...env } });
    return { status: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      status: typeof failed.code === 'number' ? failed.code : 1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    };
  }
}
