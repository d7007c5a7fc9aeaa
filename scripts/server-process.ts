import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { apiPaths } from '../contract/paths.ts';

/**
 * A real platform process (`server/main.ts`), as production runs it, for the suites that need one:
 * the server suites that prove what holds across processes, and each browser-story worker's own
 * platform (e2e/support/platform.ts).
 */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What it printed, to show when it fails to start. */
  output: string[];
}

/** Starts the server on `port` with the given environment on top of this process's own. */
export function startServerProcess(port: number, env: NodeJS.ProcessEnv): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('server/main.ts')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { url: `http://127.0.0.1:${port}`, child, output };
}

/** Resolves once the server answers, or throws with what it printed if it exits or takes too long. */
export async function waitUntilServing(server: ServerProcess, timeoutMs = 50_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) break;
    try {
      if ((await fetch(`${server.url}${apiPaths.locales}`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server at ${server.url} did not start:\n${server.output.join('')}`);
}

/** Stops the server as its operator would (SIGTERM: requests and mail in flight finish first). */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}
