import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
  waitUntilServing,
} from '../../scripts/server-process.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_E2E_PORT,
  E2E_PORT_VARIABLE,
  mailboxPort,
  PLATFORM_DATA_DIR_VARIABLE,
  PLATFORM_PORT_VARIABLE,
} from './environment.ts';

/**
 * The platform one browser-story worker talks to: a server process of its own on a port of its own,
 * with a fresh data directory and the worker's mailbox for its mail, so workers run stories side by
 * side without sharing a database, a throttle or a mailbox (decision 006).
 */
export interface Platform {
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Starts the platform of the worker with this parallel index (unique among the workers running at
 * the same time) on the run's base port plus the index. The worker's own environment is pointed at
 * it, so the story helpers that ask `serverPort()` or `serverDataDir()` find their worker's platform.
 */
export async function startPlatform(parallelIndex: number): Promise<Platform> {
  const basePort = Number(process.env[E2E_PORT_VARIABLE] ?? DEFAULT_E2E_PORT);
  const port = basePort + parallelIndex;
  const dataDir = await mkdtemp(path.join(tmpdir(), `trust-console-e2e-${parallelIndex}-`));
  // The address the browser opens: mail links and the console's own origin must be the same one.
  const url = `http://localhost:${port}`;
  const server: ServerProcess = startServerProcess(port, {
    DATA_DIR: dataDir,
    ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TOKEN_TTL_SECONDS),
    // Always PGlite in the fresh data directory, even where CI exports a PostgreSQL URL: first-run
    // needs a database nobody has set up.
    DATABASE_URL: '',
    SMTP_URL: `smtp://127.0.0.1:${mailboxPort(port)}`,
    PUBLIC_URL: url,
    MAIL_FROM: 'no-reply@example.com',
    HOST: 'localhost',
  });
  try {
    await waitUntilServing({ ...server, url }, 90_000);
  } catch (error) {
    await stopServerProcess(server);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  process.env[PLATFORM_PORT_VARIABLE] = String(port);
  process.env[PLATFORM_DATA_DIR_VARIABLE] = dataDir;
  return {
    url,
    port,
    dataDir,
    stop: async () => {
      await stopServerProcess(server);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
