import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { CaKeyAlgorithm } from '../../contract/certificate-policy.ts';
import { recordAuditEvent } from '../audit/record.ts';
import type { CertificateAuthoritiesTable, Database } from '../db/schema.ts';
import { ensureSystemAccount } from '../db/system-account.ts';
import { caAlgorithmParams } from './algorithms.ts';
import { type CaDeps, signCrl, wholeSeconds } from './crl.ts';
import { type CaSigner, caKeyStore, type GeneratedCaKey } from './custody.ts';
import { buildName, type NameAttribute, rfc4514 } from './names.ts';
import { randomSerialNumber } from './serial.ts';
import { caCertificateUrl, crlUrl } from './urls.ts';
import { x509 } from './x509.ts';

export type CertificateAuthorityRow = Selectable<CertificateAuthoritiesTable>;

export interface WorkingCertificateAuthorities {
  root: CertificateAuthorityRow;
  issuing: CertificateAuthorityRow;
}

/** Lifetimes of the platform's CAs: the root outlives every issuing CA it may sign. */
export const ROOT_CA_VALIDITY_YEARS = 20;
export const ISSUING_CA_VALIDITY_YEARS = 10;

/** Advisory lock taken while the CAs are created: one process creates them, the others wait and read. */
const CA_BOOTSTRAP_LOCK = 0x63616273;

function addYears(date: Date, years: number): Date {
  const result = new Date(date);
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}

/** The working root and issuing CA, or null for each that does not exist yet. */
export async function findWorkingCertificateAuthorities(
  db: Kysely<Database>,
): Promise<{ root: CertificateAuthorityRow | null; issuing: CertificateAuthorityRow | null }> {
  const rows = await db
    .selectFrom('certificate_authorities')
    .selectAll()
    .where('retired_at', 'is', null)
    .execute();
  return {
    root: rows.find((row) => row.kind === 'root') ?? null,
    issuing: rows.find((row) => row.kind === 'issuing') ?? null,
  };
}

/** The working CAs; throws when they were never created (the server creates them at start). */
export async function workingCertificateAuthorities(
  db: Kysely<Database>,
): Promise<WorkingCertificateAuthorities> {
  const { root, issuing } = await findWorkingCertificateAuthorities(db);
  if (root === null || issuing === null) {
    throw new Error('The platform CA has not been created: the server creates it when it starts.');
  }
  return { root, issuing };
}

interface NewCa {
  id: string;
  kind: 'root' | 'issuing';
  name: NameAttribute[];
  years: number;
  pathLength: number;
  parent: { row: CertificateAuthorityRow; signer: CaSigner } | null;
}

async function createCa(
  deps: CaDeps,
  trx: Kysely<Database>,
  algorithm: CaKeyAlgorithm,
  spec: NewCa,
  systemAccountId: string,
): Promise<CertificateAuthorityRow> {
  const store = caKeyStore(deps.config.caCustody);
  const key: GeneratedCaKey = await store.generate(spec.id, algorithm);
  try {
    const notBefore = wholeSeconds(deps.now());
    const parentCertificate =
      spec.parent === null ? null : new x509.X509Certificate(Buffer.from(spec.parent.row.certificate));
    const notAfter = addYears(notBefore, spec.years);
    const serialNumber = randomSerialNumber();
    const ski = await x509.SubjectKeyIdentifierExtension.create(key.publicKey, false, key.crypto);
    const parentSki = parentCertificate?.getExtension(x509.SubjectKeyIdentifierExtension) ?? null;
    const subject = buildName(spec.name);
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(true, spec.pathLength, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ski,
      new x509.AuthorityKeyIdentifierExtension(parentSki?.keyId ?? ski.keyId),
    ];
    if (spec.parent !== null) {
      extensions.push(
        new x509.CRLDistributionPointsExtension([crlUrl(deps.config, spec.parent.row.id)]),
        new x509.AuthorityInfoAccessExtension({
          caIssuers: [caCertificateUrl(deps.config, spec.parent.row.id)],
        }),
      );
    }
    const signing = spec.parent?.signer ?? key;
    const certificate = await x509.X509CertificateGenerator.create(
      {
        serialNumber,
        subject,
        issuer: parentCertificate?.subjectName ?? subject,
        notBefore,
        notAfter:
          parentCertificate === null ? notAfter : new Date(Math.min(+notAfter, +parentCertificate.notAfter)),
        publicKey: key.publicKey,
        signingKey: signing.privateKey,
        signingAlgorithm: caAlgorithmParams(
          (spec.parent?.row.key_algorithm as CaKeyAlgorithm | undefined) ?? algorithm,
        ).signing,
        extensions,
      },
      signing.crypto,
    );
    const der = new Uint8Array(certificate.rawData);
    const fingerprint = Buffer.from(await certificate.getThumbprint('SHA-256')).toString('hex');
    const row = await trx
      .insertInto('certificate_authorities')
      .values({
        id: spec.id,
        kind: spec.kind,
        parent_id: spec.parent?.row.id ?? null,
        key_algorithm: algorithm,
        key_custody: key.custody,
        sealed_private_key: key.sealedPrivateKey,
        key_label: key.keyLabel,
        certificate: der,
        subject: rfc4514(spec.name),
        serial_number: serialNumber,
        not_before: certificate.notBefore,
        not_after: certificate.notAfter,
        sha256_fingerprint: fingerprint,
        created_at: deps.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAuditEvent(trx, {
      action: 'CREATE',
      status: 'success',
      resourceType: 'CERTIFICATE_AUTHORITY',
      resourceId: row.id,
      accountId: systemAccountId,
      actorId: null,
      actorName: 'system',
      details: {
        kind: row.kind,
        subject: row.subject,
        key_algorithm: row.key_algorithm,
        key_custody: row.key_custody,
        serial_number: row.serial_number,
        not_after: certificate.notAfter.toISOString(),
      },
      occurredAt: deps.now(),
    });
    return await signCrl(deps, trx, row.id);
  } catch (error) {
    await store.discard(key).catch(() => undefined);
    throw error;
  }
}

/**
 * Makes sure one working root CA (self-signed, 20 years, path length 1) and one working issuing CA
 * (signed by the root, 10 years, path length 0) exist, creating what is missing with keys of
 * CA_KEY_ALGORITHM in the configured custody, each with its first CRL and a CREATE
 * CERTIFICATE_AUTHORITY event on the System Account. Several processes starting at once on one
 * database create them once: the creation runs under an advisory lock, and the partial unique index
 * (one working CA of each kind) stands behind it.
 */
export async function ensureCertificateAuthorities(deps: CaDeps): Promise<WorkingCertificateAuthorities> {
  const existing = await findWorkingCertificateAuthorities(deps.db);
  if (existing.root !== null && existing.issuing !== null) {
    return { root: existing.root, issuing: existing.issuing };
  }
  return deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CA_BOOTSTRAP_LOCK})`.execute(trx);
    let { root, issuing } = await findWorkingCertificateAuthorities(trx);
    if (root !== null && issuing !== null) return { root, issuing };
    const systemAccountId = await ensureSystemAccount(trx, deps.now());
    const algorithm = deps.config.caKeyAlgorithm;
    const name = deps.config.caName;
    const store = caKeyStore(deps.config.caCustody);
    root ??= await createCa(
      deps,
      trx,
      algorithm,
      {
        id: randomUUID(),
        kind: 'root',
        name: [
          ['O', name],
          ['CN', `${name} Root CA`],
        ],
        years: ROOT_CA_VALIDITY_YEARS,
        pathLength: 1,
        parent: null,
      },
      systemAccountId,
    );
    issuing = await createCa(
      deps,
      trx,
      algorithm,
      {
        id: randomUUID(),
        kind: 'issuing',
        name: [
          ['O', name],
          ['CN', `${name} Issuing CA`],
        ],
        years: ISSUING_CA_VALIDITY_YEARS,
        pathLength: 0,
        parent: { row: root, signer: await store.signer(root) },
      },
      systemAccountId,
    );
    return { root, issuing };
  });
}
