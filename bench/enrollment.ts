import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadAgentConfig } from '../agent/config.ts';
import { startAgent } from '../agent/server.ts';
import { CLIENT_AUTH_POLICY } from '../contract/certificate-policy.ts';
import { apiPaths } from '../contract/paths.ts';
import type { EnrollmentCertificate, EnrollmentCreated } from '../contract/schemas/enrollments.ts';
import type { Profile } from '../contract/schemas/profile.ts';
import { openSession, pairingStatus, requestPairing } from '../contract/trust-agent/client-session.ts';
import { generateIdentityKeys } from '../contract/trust-agent/session-crypto.ts';
import { freePort, signedInToken, startPlatform } from './servers.ts';
import { initSoftHsmToken, SOFTHSM_MODULE, softHsmInstalled } from './softhsm.ts';

const run = promisify(execFile);
const ENROLLMENTS = Number(process.env.BENCH_ENROLLMENTS ?? 10);
const PIN = '246810';
const ORIGIN = 'https://bench.console.example';

/**
 * `npm run bench enrollment`: enrollment end to end as the enrollment page drives it, from key
 * generation on a SoftHSM2 token to the imported certificate: `generate` in the agent (RSA 2048 and
 * the CSR signed on the token) over an encrypted session, the certificate request to the platform
 * (issued by its CA), `importCert` next to the key, and the redeem. Beside it in the same run, the
 * same work done by hand with openssl: `openssl req -newkey rsa:2048` and `openssl x509 -req` signed
 * by a CA key of the platform CA's algorithm (ECDSA P-384). The goal is at most 1.5 × openssl's time;
 * it is printed, never asserted.
 */
export async function benchEnrollment(): Promise<void> {
  if (!softHsmInstalled()) {
    console.info('\nenrollment: skipped, softhsm2 is not installed.');
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-enrollment-'));
  await initSoftHsmToken(dir, 'bench', PIN);
  const platform = await startPlatform(path.join(dir, 'platform'));
  const agent = await startAgent({
    ...loadAgentConfig({
      TRUST_AGENT_DATA_DIR: path.join(dir, 'agent'),
      TRUST_AGENT_PKCS11_MODULES: `softhsm=${SOFTHSM_MODULE}`,
      TRUST_AGENT_SOFTWARE_KEYSTORE: 'off',
      TRUST_AGENT_PREAPPROVED_ORIGINS: ORIGIN,
    }),
    port: await freePort(),
    interactive: false,
    desktopNotifications: false,
  });
  try {
    const token = await signedInToken(platform.origin, path.join(dir, 'platform'));
    const api = async (method: string, url: string, body?: unknown, bearer = true) => {
      const response = await fetch(`${platform.origin}${url}`, {
        method,
        headers: {
          ...(bearer ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? null : ((await response.json()) as unknown);
    };
    const accountId = ((await api('GET', apiPaths.profile)) as Profile).primary_account_id as string;
    const profile = (await api('POST', apiPaths.certificateProfiles.profiles, {
      account_id: accountId,
      name: 'Enrollment benchmark',
      description: 'npm run bench enrollment',
      policy: CLIENT_AUTH_POLICY,
    })) as { id: string };

    const connection = {
      baseUrl: agent.url,
      fetch: (input: string, init: RequestInit) =>
        fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: ORIGIN } }),
    };
    const identity = await generateIdentityKeys();
    const pairing = await requestPairing(connection, ORIGIN, identity);
    if ((await pairingStatus(connection, pairing.response.pairingId)).status !== 'approved') {
      throw new Error('The benchmark origin was not paired');
    }
    const session = await openSession(connection, ORIGIN, identity, pairing.response.agentKey);
    const keystores = await session.send('keystore', {});
    const keystoreId = keystores.ok
      ? keystores.result.keystores.find((item) => item.name === 'bench')?.id
      : undefined;
    if (keystoreId === undefined) throw new Error('The bench token is not listed');

    let enrolled = 0;
    let elapsed = 0;
    for (let index = 0; index < ENROLLMENTS; index++) {
      const created = (await api('POST', apiPaths.enrollments.create, {
        account_id: accountId,
        profile_id: profile.id,
        seat: { kind: 'device', name: `Bench device ${index}`, email: 'bench@example.com' },
      })) as EnrollmentCreated;
      const code = new URL(created.enrollment_url).pathname.split('/').at(-1) ?? '';
      const id = created.enrollment.id;
      const commonName = `bench-device-${index}`;
      const started = performance.now();
      const generated = await session.send('generate', {
        keystoreId,
        pin: PIN,
        algorithm: 'RSA',
        keySize: 2048,
        subject: { commonName },
      });
      if (!generated.ok) throw new Error(`generate: ${generated.error.message}`);
      const issued = (await api(
        'POST',
        apiPaths.enrollments.certificate(id, code),
        {
          name: `${commonName} ${index}`,
          end_date: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10),
          csr: generated.result.csr,
          common_name: commonName,
          enrollment_method: 'DTA',
          keystore_type: 'HARDWARE_TOKEN',
        },
        false,
      )) as EnrollmentCertificate;
      const imported = await session.send('importCert', {
        keystoreId,
        pin: PIN,
        certificate: issued.x509_cert,
      });
      if (!imported.ok) throw new Error(`importCert: ${imported.error.message}`);
      await api('PUT', apiPaths.enrollments.redeem(id, code), undefined, false);
      elapsed += performance.now() - started;
      enrolled += 1;
    }
    const platformSeconds = elapsed / 1000 / enrolled;

    const ca = path.join(dir, 'ca');
    await run('openssl', ['ecparam', '-name', 'secp384r1', '-genkey', '-noout', '-out', `${ca}.key`]);
    await run('openssl', [
      'req',
      '-new',
      '-x509',
      '-key',
      `${ca}.key`,
      '-subj',
      '/CN=Bench CA',
      '-days',
      '30',
      '-out',
      `${ca}.pem`,
    ]);
    writeFileSync(
      `${ca}.ext`,
      'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n',
    );
    const opensslStarted = performance.now();
    for (let index = 0; index < ENROLLMENTS; index++) {
      const base = path.join(dir, `openssl-${index}`);
      await run('openssl', [
        'req',
        '-new',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        `/CN=bench-${index}`,
        '-keyout',
        `${base}.key`,
        '-out',
        `${base}.csr`,
      ]);
      await run('openssl', [
        'x509',
        '-req',
        '-in',
        `${base}.csr`,
        '-CA',
        `${ca}.pem`,
        '-CAkey',
        `${ca}.key`,
        '-CAcreateserial',
        '-days',
        '365',
        '-sha384',
        '-extfile',
        `${ca}.ext`,
        '-out',
        `${base}.pem`,
      ]);
    }
    const opensslSeconds = (performance.now() - opensslStarted) / 1000 / ENROLLMENTS;
    const ratio = platformSeconds / opensslSeconds;
    console.info(
      `\nEnrollment end to end (RSA 2048 on SoftHSM2 to the imported certificate), ${ENROLLMENTS} one after another`,
    );
    console.info(
      `  openssl req -newkey rsa:2048 + openssl x509 -req  ${(opensslSeconds * 1000).toFixed(0).padStart(6)} ms each   baseline`,
    );
    console.info(
      `  agent + platform (generate, issue, import, redeem) ${(platformSeconds * 1000).toFixed(0).padStart(6)} ms each   ${ratio.toFixed(2)} × the baseline (goal: at most 1.5 ×)`,
    );
  } finally {
    await agent.stop();
    await platform.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
