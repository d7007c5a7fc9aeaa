import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLIENT_AUTH_POLICY } from '../contract/certificate-policy.ts';
import type { AuditActor } from '../server/audit/change.ts';
import { ensureCertificateAuthorities } from '../server/ca/bootstrap.ts';
import { closeCaKeyStores } from '../server/ca/custody.ts';
import { issueCertificate } from '../server/ca/issue.ts';
import { nodeCrypto, type WebCryptoKeyPair, x509 } from '../server/ca/x509.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrator.ts';

const run = promisify(execFile);

/**
 * `npm run bench ca`: certificates issued per second from N CSRs (EC P-256, then RSA 2048) through
 * `issueCertificate` (parse and verify the CSR, check the policy, sign with the issuing CA's key,
 * insert the row and its audit event, one transaction each, on PGlite as `npm start` runs it), beside
 * `openssl x509 -req` signing the same CSRs with a CA key of the same algorithm in the same run (one
 * process per certificate, as a shell script around openssl would). Printed as a ratio, never as a
 * verdict on wall-clock time.
 */
const CSRS = Number(process.env.BENCH_CA_CSRS ?? 200);

type KeyType = 'EC P-256' | 'RSA 2048';

async function csrs(keyType: KeyType, count: number): Promise<string[]> {
  const algorithm =
    keyType === 'EC P-256'
      ? { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }
      : {
          name: 'RSASSA-PKCS1-v1_5',
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash: 'SHA-256',
        };
  const result: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const keys = (await nodeCrypto.subtle.generateKey(algorithm, false, [
      'sign',
      'verify',
    ])) as WebCryptoKeyPair;
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({
      name: `CN=bench-${index}`,
      keys,
      signingAlgorithm: algorithm,
    });
    result.push(csr.toString('pem'));
  }
  return result;
}

/** The openssl side: a CA key and certificate of the platform CA's algorithm, and the same extensions. */
async function opensslCa(
  dir: string,
  algorithm: string,
): Promise<{ key: string; cert: string; ext: string }> {
  const key = path.join(dir, 'ca.key');
  const cert = path.join(dir, 'ca.pem');
  const newkey = algorithm.startsWith('ECDSA')
    ? ['-newkey', 'ec', '-pkeyopt', `ec_paramgen_curve:${algorithm === 'ECDSA-P256' ? 'P-256' : 'P-384'}`]
    : ['-newkey', `rsa:${algorithm.slice(4)}`];
  await run('openssl', [
    'req',
    '-x509',
    ...newkey,
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '3650',
    '-subj',
    '/CN=Bench CA',
  ]);
  const ext = path.join(dir, 'ext.cnf');
  writeFileSync(
    ext,
    [
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = clientAuth',
      'subjectKeyIdentifier = hash',
      'authorityKeyIdentifier = keyid',
      'crlDistributionPoints = URI:http://localhost:8080/crl/bench.crl',
      'authorityInfoAccess = caIssuers;URI:http://localhost:8080/ca/bench/certificate.crt',
      '',
    ].join('\n'),
  );
  return { key, cert, ext };
}

export async function benchCertificateIssuance(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-ca-'));
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db);
    const config = loadConfig({ DATA_DIR: dataDir });
    const deps = { db: database.db, config, now: () => new Date(), mail: { nudge: () => undefined } };
    const quiet = console.info;
    console.info = () => undefined;
    const cas = await ensureCertificateAuthorities(deps).finally(() => {
      console.info = quiet;
    });
    const actor: AuditActor = { id: 'bench', name: 'bench', address: null };
    const openssl = await opensslCa(dataDir, cas.issuing.key_algorithm);
    console.info(
      `\nCertificates issued from ${CSRS} CSRs each, one after another; CA key ${cas.issuing.key_algorithm} (PGlite)`,
    );
    for (const keyType of ['EC P-256', 'RSA 2048'] as const) {
      const requests = await csrs(keyType, CSRS);
      const files = requests.map((pem, index) => {
        const file = path.join(dataDir, `csr-${keyType.replace(' ', '')}-${index}.pem`);
        writeFileSync(file, pem);
        return file;
      });

      const started = performance.now();
      for (const [index, csr] of requests.entries()) {
        await database.db.transaction().execute((trx) =>
          issueCertificate(deps, trx, actor, {
            csr,
            policy: CLIENT_AUTH_POLICY,
            subject: { common_name: `bench-${keyType}-${index}` },
            accountId: null,
            profile: null,
            source: 'client_auth',
            ownerUserId: null,
          }),
        );
      }
      const platformPerSecond = CSRS / ((performance.now() - started) / 1000);

      const opensslStarted = performance.now();
      for (const [index, file] of files.entries()) {
        await run('openssl', [
          'x509',
          '-req',
          '-in',
          file,
          '-CA',
          openssl.cert,
          '-CAkey',
          openssl.key,
          '-set_serial',
          `0x${(index + 1).toString(16)}`,
          '-days',
          '365',
          '-extfile',
          openssl.ext,
          '-out',
          `${file}.crt`,
        ]);
      }
      const opensslPerSecond = CSRS / ((performance.now() - opensslStarted) / 1000);
      console.info(
        `  ${keyType.padEnd(9)} issueCertificate ${platformPerSecond.toFixed(1).padStart(7)} certs/s   ` +
          `openssl x509 -req ${opensslPerSecond.toFixed(1).padStart(7)} certs/s   ` +
          `ratio ${(platformPerSecond / opensslPerSecond).toFixed(2)} ×`,
      );
    }
  } finally {
    await closeCaKeyStores();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
