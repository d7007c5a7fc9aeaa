import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadAgentConfig } from '../agent/config.ts';
import { initSoftHsmToken, SOFTHSM_MODULE, softHsmInstalled } from './softhsm.ts';

const run = promisify(execFile);

const KEYS = Number(process.env.BENCH_AGENT_KEYS ?? 20);
const PIN = '246810';

/**
 * `npm run bench agent-keys`: RSA-2048 key pairs generated on a PKCS#11 token (SoftHSM2) with their
 * CSR signed by the token, through the agent's keystore (`generate`: session, login, C_GenerateKeyPair,
 * CSR through node-webcrypto-p11), beside `openssl req -newkey rsa:2048 -nodes` making key and CSR in
 * software, one process per request, in the same run. Printed as rates and their ratio; RSA key
 * generation time varies a lot from key to key, so a few dozen keys are needed for a steady figure.
 */
export async function benchAgentKeys(): Promise<void> {
  if (!softHsmInstalled()) {
    console.info('\nagent-keys: skipped, softhsm2 is not installed.');
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-agent-'));
  await initSoftHsmToken(dir, 'bench', PIN);
  const { openKeystores } = await import('../agent/keystores/index.ts');
  const keystores = await openKeystores(
    loadAgentConfig({
      TRUST_AGENT_DATA_DIR: path.join(dir, 'agent'),
      TRUST_AGENT_PKCS11_MODULES: `softhsm=${SOFTHSM_MODULE}`,
      TRUST_AGENT_SOFTWARE_KEYSTORE: 'off',
    }),
  );
  try {
    const keystore = (await keystores.list()).find((item) => item.name === 'bench');
    if (keystore === undefined) throw new Error('The bench token is not listed');
    const started = performance.now();
    for (let index = 0; index < KEYS; index++) {
      await keystores.generate({
        keystoreId: keystore.id,
        pin: PIN,
        algorithm: 'RSA',
        keySize: 2048,
        subject: { commonName: `bench-${index}` },
      });
    }
    const agentPerSecond = KEYS / ((performance.now() - started) / 1000);

    const csr = path.join(dir, 'openssl.csr');
    const opensslStarted = performance.now();
    for (let index = 0; index < KEYS; index++) {
      await run('openssl', [
        'req',
        '-new',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=bench',
        '-keyout',
        path.join(dir, 'openssl.key'),
        '-out',
        csr,
      ]);
    }
    const opensslPerSecond = KEYS / ((performance.now() - opensslStarted) / 1000);
    console.info(`\nRSA-2048 key pair and CSR, ${KEYS} one after another`);
    console.info(
      `  agent generate on SoftHSM2 ${agentPerSecond.toFixed(2).padStart(7)} keys/s   ` +
        `openssl req -newkey rsa:2048 ${opensslPerSecond.toFixed(2).padStart(7)} keys/s   ` +
        `ratio ${(agentPerSecond / opensslPerSecond).toFixed(2)} ×`,
    );
  } finally {
    await keystores.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
