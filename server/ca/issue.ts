import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { CaKeyAlgorithm } from '../../contract/certificate-policy.ts';
import {
  describeKey,
  EXTENDED_KEY_USAGE_OIDS,
  type KeyDescription,
  type KeyUsage,
  type ProfilePolicy,
  policyAcceptsKey,
  type SubjectField,
  type SubjectValues,
  subjectIssues,
} from '../../contract/certificate-policy.ts';
import { EMAIL_PATTERN, type ValidationCode } from '../../contract/validation.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy } from '../audit/change.ts';
import type { CertificatesTable, Database } from '../db/schema.ts';
import { ensureSystemAccount } from '../db/system-account.ts';
import { ApiError } from '../http/errors.ts';
import { caAlgorithmParams } from './algorithms.ts';
import { workingCertificateAuthorities } from './bootstrap.ts';
import { wholeSeconds } from './crl.ts';
import { parseCsr } from './csr.ts';
import { caKeyStore } from './custody.ts';
import { certificatePem } from './export.ts';
import { buildName, rfc4514, subjectAttributes } from './names.ts';
import { randomSerialNumber } from './serial.ts';
import { caCertificateUrl, crlUrl } from './urls.ts';
import { x509 } from './x509.ts';

/** What a caller asks the issuing CA for. */
export interface IssueRequest {
  /** PKCS#10, PEM (one block, nothing after it). */
  csr: string;
  /** Decides subject fields, key usages, extended key usages, key types and validity. */
  policy: ProfilePolicy;
  /**
   * The subject values asked for, each checked against the policy (`subjectIssues`). The CSR's own
   * subject and requested extensions are never copied into the certificate.
   */
  subject: SubjectValues;
  accountId: string | null;
  profile: { id: string; name: string } | null;
  source: Selectable<CertificatesTable>['source'];
  ownerUserId: string | null;
}

export interface IssuedCertificate {
  row: Selectable<CertificatesTable>;
  /** The certificate, PEM. */
  pem: string;
  /** The issuing CA's certificate then the root's, PEM each. */
  chain: string[];
}

/** Microsoft's user principal name, an otherName of the subject alternative name. */
export const UPN_OID = '1.3.6.1.4.1.311.20.2.3';

/**
 * The X.509 key usage bits of each of the spec's key usages (decision 019, key-usage mapping):
 * Authentication signs a challenge (TLS client authentication, smart-card sign-in), and with an RSA
 * key also receives a key enciphered to it (smart-card logon's PKINIT in its RSA mode has the KDC
 * encipher the reply key to the certificate's key), so RSA gets key encipherment too; it never
 * asserts non-repudiation, which a sign-in does not make;
 * DigitalSignature also signs documents, so it asserts non-repudiation (contentCommitment);
 * KeyManagement transports keys: key encipherment for RSA, key agreement for EC;
 * CardAuthentication is PIV card authentication: a signature, with its extended key usage.
 */
export function keyUsageFlags(usages: readonly KeyUsage[], key: KeyDescription): number {
  let flags = 0;
  for (const usage of usages) {
    switch (usage) {
      case 'Authentication':
        flags |= x509.KeyUsageFlags.digitalSignature;
        if (key.algorithm === 'RSA') flags |= x509.KeyUsageFlags.keyEncipherment;
        break;
      case 'CardAuthentication':
        flags |= x509.KeyUsageFlags.digitalSignature;
        break;
      case 'DigitalSignature':
        flags |= x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation;
        break;
      case 'KeyManagement':
        flags |=
          key.algorithm === 'RSA' ? x509.KeyUsageFlags.keyEncipherment : x509.KeyUsageFlags.keyAgreement;
        break;
    }
  }
  return flags;
}

/** The extended key usages: the policy's, plus PIV card authentication for CardAuthentication. */
export function extendedKeyUsageOids(policy: ProfilePolicy): string[] {
  const oids = new Set(policy.extended_key_usages.map((usage) => EXTENDED_KEY_USAGE_OIDS[usage]));
  if (policy.key_usages.includes('CardAuthentication'))
    oids.add(EXTENDED_KEY_USAGE_OIDS.pivCardAuthentication);
  return [...oids];
}

/** RFC 5280 upper bounds of the subject attributes this CA writes. */
const MAX_LENGTHS: Partial<Record<SubjectField, number>> = {
  common_name: 64,
  organization_name: 64,
  organization_units: 64,
  locality: 128,
  state: 128,
  street_address: 128,
  postal_code: 40,
  emails: 255,
  dns_names: 253,
  user_principal_names: 255,
};
const DNS_NAME =
  /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const UPN = /^[^@\s]+@[^@\s]+$/;

function subjectRefusal(field: SubjectField, code: ValidationCode, message: string): ApiError {
  return new ApiError(400, `${field}: ${message}`, { field, code });
}

/**
 * The subject values, trimmed, after the policy's rules (a required field empty, a field the policy
 * does not allow given) and the form of each value; throws ApiError 400 naming the first field at fault.
 */
export function checkedSubject(policy: ProfilePolicy, values: SubjectValues): SubjectValues {
  const issue = subjectIssues(policy, values)[0];
  if (issue !== undefined) {
    throw subjectRefusal(
      issue.field,
      issue.code,
      issue.code === 'required' ? 'is required by the profile.' : 'is not allowed by the profile.',
    );
  }
  const result: SubjectValues = {};
  for (const [field, raw] of Object.entries(values) as [SubjectField, string | string[] | undefined][]) {
    if (raw === undefined) continue;
    const list = (Array.isArray(raw) ? raw : [raw])
      .map((value) => value.trim())
      .filter((value) => value !== '');
    for (const value of list) {
      const max = MAX_LENGTHS[field];
      if (max !== undefined && value.length > max) {
        throw subjectRefusal(field, 'tooLong', `must be at most ${max} characters.`);
      }
      if (/\p{Cc}/u.test(value)) throw subjectRefusal(field, 'invalidName', 'holds control characters.');
      if (field === 'country' && !/^[A-Za-z]{2}$/.test(value)) {
        throw subjectRefusal(field, 'invalidCountry', 'must be a two-letter ISO 3166 country code.');
      }
      if (field === 'emails' && !EMAIL_PATTERN.test(value)) {
        throw subjectRefusal(field, 'invalidEmail', `"${value}" is not an e-mail address.`);
      }
      if (field === 'dns_names' && !DNS_NAME.test(value)) {
        throw subjectRefusal(field, 'invalidValue', `"${value}" is not a DNS name.`);
      }
      if (field === 'user_principal_names' && !UPN.test(value)) {
        throw subjectRefusal(field, 'invalidValue', `"${value}" is not a user principal name (user@domain).`);
      }
    }
    if (list.length === 0) continue;
    if (Array.isArray(raw)) (result as Record<string, string[]>)[field] = list;
    else (result as Record<string, string>)[field] = list[0] ?? '';
  }
  return result;
}

/** A CA's certificate never changes: parsed once per process. */
const parsedCas = new Map<
  string,
  { certificate: x509.X509Certificate; ski: x509.SubjectKeyIdentifierExtension | null }
>();

function parsedCa(id: string, der: Uint8Array) {
  let parsed = parsedCas.get(id);
  if (parsed === undefined) {
    const certificate = new x509.X509Certificate(Buffer.from(der));
    parsed = { certificate, ski: certificate.getExtension(x509.SubjectKeyIdentifierExtension) };
    parsedCas.set(id, parsed);
  }
  return parsed;
}

/**
 * Issues a certificate from a CSR under a policy, in the caller's transaction, with its audit event
 * (CREATE CERTIFICATE). Throws `ApiError` 400 naming the problem (field `csr` or the subject field)
 * and issues nothing when the CSR's signature or key is bad, the key is weak or refused by the
 * policy, or the subject breaks the policy.
 *
 * The certificate takes nothing from the CSR but its public key: the subject comes from
 * `request.subject` (checked against the policy), the extensions from the policy. It is signed by
 * the working issuing CA, valid from now for the policy's days but never past the issuing CA.
 */
export async function issueCertificate(
  deps: AppDeps,
  trx: Kysely<Database>,
  actor: AuditActor,
  request: IssueRequest,
): Promise<IssuedCertificate> {
  const { request: csr, key } = await parseCsr(request.csr);
  if (!policyAcceptsKey(request.policy, key)) {
    throw new ApiError(400, `csr: holds an ${describeKey(key)} key, which the profile does not accept.`, {
      field: 'csr',
      code: 'keyTypeNotAllowed',
    });
  }
  const subject = checkedSubject(request.policy, request.subject);
  const commonName = subject.common_name ?? '';
  const { root, issuing } = await workingCertificateAuthorities(trx);
  const { certificate: issuer, ski: issuerSki } = parsedCa(issuing.id, issuing.certificate);
  const signer = await caKeyStore(deps.config.caCustody).signer(issuing);

  const notBefore = wholeSeconds(deps.now());
  const notAfter = new Date(
    Math.min(notBefore.getTime() + request.policy.validity_days * 86_400_000, issuer.notAfter.getTime()),
  );
  const names: x509.JsonGeneralName[] = [
    ...(subject.emails ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(subject.dns_names ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(subject.user_principal_names ?? []).map((value) => ({ type: 'upn' as const, value })),
  ];
  const ekus = extendedKeyUsageOids(request.policy);
  const attributes = subjectAttributes(subject);
  const serialNumber = randomSerialNumber();
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(keyUsageFlags(request.policy.key_usages, key), true),
    ...(ekus.length > 0 ? [new x509.ExtendedKeyUsageExtension(ekus, false)] : []),
    ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names, false)] : []),
    await x509.SubjectKeyIdentifierExtension.create(csr.publicKey),
    ...(issuerSki === null ? [] : [new x509.AuthorityKeyIdentifierExtension(issuerSki.keyId)]),
    new x509.CRLDistributionPointsExtension([crlUrl(deps.config, issuing.id)]),
    new x509.AuthorityInfoAccessExtension({ caIssuers: [caCertificateUrl(deps.config, issuing.id)] }),
  ];
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber,
      subject: buildName(attributes),
      issuer: issuer.subjectName,
      notBefore,
      notAfter,
      publicKey: csr.publicKey,
      signingKey: signer.privateKey,
      signingAlgorithm: caAlgorithmParams(issuing.key_algorithm as CaKeyAlgorithm).signing,
      extensions,
    },
    signer.crypto,
  );
  const der = new Uint8Array(certificate.rawData);
  const fingerprint = Buffer.from(await certificate.getThumbprint('SHA-256')).toString('hex');
  const now = deps.now();
  const issuedBy = await trx.selectFrom('users').select('id').where('id', '=', actor.id).executeTakeFirst();
  const row = await trx
    .insertInto('certificates')
    .values({
      id: randomUUID(),
      serial_number: serialNumber,
      issuer_id: issuing.id,
      account_id: request.accountId,
      profile_id: request.profile?.id ?? null,
      profile_name: request.profile?.name ?? null,
      source: request.source,
      subject: rfc4514(attributes),
      common_name: commonName,
      key_algorithm: describeKey(key),
      not_before: certificate.notBefore,
      not_after: certificate.notAfter,
      certificate: der,
      sha256_fingerprint: fingerprint,
      owner_user_id: request.ownerUserId,
      issued_by: issuedBy?.id ?? null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await auditChangeBy(trx, actor, deps, {
    action: 'CREATE',
    resourceType: 'CERTIFICATE',
    resourceId: row.id,
    accountId: request.accountId ?? (await ensureSystemAccount(trx, now)),
    details: {
      common_name: row.common_name,
      serial_number: row.serial_number,
      source: row.source,
      profile_name: row.profile_name,
      issuer_id: row.issuer_id,
      not_after: certificate.notAfter.toISOString(),
    },
  });
  return {
    row,
    pem: certificatePem(der),
    chain: [certificatePem(issuing.certificate), certificatePem(root.certificate)],
  };
}
