import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadAgentConfig } from '../agent/config.ts';
import { startAgent } from '../agent/server.ts';
import { hello, openSession, pairingStatus, requestPairing } from '../contract/trust-agent/client-session.ts';
import { generateIdentityKeys } from '../contract/trust-agent/session-crypto.ts';
import { freePort } from './servers.ts';

/**
 * `npm run bench agent`: what the encrypted session costs the console. Handshakes with one command
 * (`service`) after each, and commands in one open session, per second, beside plain unencrypted
 * round trips to the same agent (`GET /v1/hello`) in the same run. Printed as rates and ratios,
 * never as a verdict on wall-clock time.
 */
const ROUNDS = Number(process.env.BENCH_AGENT_ROUNDS ?? 300);
const ORIGIN = 'https://bench.console.example';

async function perSecond(rounds: number, round: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(20, rounds); i += 1) await round();
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) await round();
  return rounds / ((performance.now() - started) / 1000);
}

export async function benchAgentSession(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-agent-bench-'));
  const config = {
    ...loadAgentConfig({ TRUST_AGENT_DATA_DIR: dataDir, TRUST_AGENT_PREAPPROVED_ORIGINS: ORIGIN }),
    port: await freePort(),
    interactive: false,
    desktopNotifications: false,
  };
  const agent = await startAgent(config);
  try {
    const connection = {
      baseUrl: agent.url,
      fetch: (input: string, init: RequestInit) =>
        fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: ORIGIN } }),
    };
    const identity = await generateIdentityKeys();
    const pairing = await requestPairing(connection, ORIGIN, identity);
    while ((await pairingStatus(connection, pairing.response.pairingId)).status === 'pending') {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const agentKey = pairing.response.agentKey;

    const plain = await perSecond(ROUNDS, () => hello(connection));
    const handshakes = await perSecond(ROUNDS, async () => {
      const session = await openSession(connection, ORIGIN, identity, agentKey);
      await session.send('service', {});
    });
    const session = await openSession(connection, ORIGIN, identity, agentKey);
    const commands = await perSecond(ROUNDS, () => session.send('service', {}));

    console.info(`\nTrust agent session, ${ROUNDS} rounds each, one client on loopback`);
    console.info(`  plain round trip (GET hello)          ${plain.toFixed(0).padStart(6)} /s   baseline`);
    console.info(
      `  handshake + one command               ${handshakes.toFixed(0).padStart(6)} /s   ${(plain / handshakes).toFixed(1)} × the baseline's time`,
    );
    console.info(
      `  command in an open session            ${commands.toFixed(0).padStart(6)} /s   ${(plain / commands).toFixed(1)} × the baseline's time`,
    );
  } finally {
    await agent.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
