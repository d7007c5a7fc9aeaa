import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { apiPaths } from '../contract/paths.ts';
import { issueLicence } from '../e2e/support/licence.ts';
import { sharedCaKeyFile } from '../tests/server/shared-ca-key-file.ts';

export interface RunningServer {
  origin: string;
  stop: () => Promise<void>;
}

function startProcess(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  // `--import tsx` keeps server and baseline in one Node process each, with no wrapper in between.
  return spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (!address || typeof address !== 'object') throw new Error('No free port.');
  return address.port;
}

export async function startBaseline(): Promise<RunningServer> {
  const child = startProcess('bench/baseline-server.ts', {});
  const [chunk] = (await once(child.stdout ?? child, 'data')) as [Buffer];
  return { origin: `http://127.0.0.1:${chunk.toString().trim()}`, stop: () => stopProcess(child) };
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}.`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer ${url} within ${timeoutMs / 1000} s.`);
}

/**
 * The platform API as `npm start` runs it: on PGlite in `dataDir`, or on PostgreSQL at `databaseUrl`,
 * with any other settings in `env`.
 */
export async function startPlatform(
  dataDir: string,
  databaseUrl = '',
  env: NodeJS.ProcessEnv = {},
): Promise<RunningServer> {
  const port = await freePort();
  const child = startProcess('server/main.ts', {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ...(databaseUrl === '' || env.CA_KEY_ENCRYPTION_KEY_FILE
      ? {}
      : { CA_KEY_ENCRYPTION_KEY_FILE: sharedCaKeyFile(databaseUrl) }),
  });
  child.stdout?.resume();
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(`${origin}${apiPaths.setup.status}`, child, 90_000);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { origin, stop: () => stopProcess(child) };
}

async function postJson(url: string, body: unknown, expected: number): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== expected)
    throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Installs a licence and the first administrator through the API, then signs in: a bearer token. */
export async function signedInToken(origin: string, dataDir: string): Promise<string> {
  const licence = await issueLicence(dataDir);
  await postJson(`${origin}${apiPaths.setup.licence}`, { body: licence }, 201);
  const administrator = { user_name: 'bench', password: 'Bench-mark-2025!' };
  await postJson(
    `${origin}${apiPaths.setup.user}`,
    {
      first_name: 'Bench',
      last_name: 'Mark',
      email: 'bench@example.com',
      ...administrator,
      repeatedPassword: administrator.password,
    },
    201,
  );
  const token = (await postJson(
    `${origin}${apiPaths.identity.login}`,
    { username: administrator.user_name, password: administrator.password },
    200,
  )) as { access_token: string };
  return token.access_token;
}
