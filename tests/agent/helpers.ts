import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentConfig } from '../../agent/config.ts';
import { type AgentOptions, type RunningAgent, startAgent } from '../../agent/server.ts';
import { AGENT_VERSION } from '../../agent/version.ts';
import type { Fetch } from '../../contract/trust-agent/client-session.ts';

export const CONSOLE_ORIGIN = 'https://console.example';

/** A free loopback port for one suite's agent. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface TestAgent {
  agent: RunningAgent;
  config: AgentConfig;
  cleanUp(): Promise<void>;
}

/** A real agent on a port and data directory of its own. */
export async function startTestAgent(
  overrides: Partial<AgentConfig> = {},
  options: AgentOptions = {},
): Promise<TestAgent> {
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'trust-agent-test-')));
  const config: AgentConfig = {
    port: await freePort(),
    desktopClientPort: null,
    dataDir,
    allowedOrigins: [CONSOLE_ORIGIN],
    preapprovedOrigins: [],
    pkcs11Modules: [],
    softwareKeystore: true,
    webAccess: true,
    version: AGENT_VERSION,
    interactive: false,
    desktopNotifications: false,
    ...overrides,
  };
  const agent = await startAgent(config, options);
  return {
    agent,
    config,
    async cleanUp() {
      await agent.stop();
      if (!overrides.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** `fetch` as a browser page of `origin` sends it: Node's fetch sets no Origin by itself. */
export function fetchFrom(origin: string | null): Fetch {
  return (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(origin ? { Origin: origin } : {}) },
    });
}
