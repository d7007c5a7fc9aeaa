import { X509Certificate } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The user a presented client certificate signs in. */
export interface ClientCertificateUser {
  userId: string;
  clientAuthCertificateId: string;
}

function parse(der: Uint8Array): X509Certificate | null {
  try {
    return new X509Certificate(der);
  } catch {
    return null;
  }
}

function within(x509: X509Certificate, now: Date): boolean {
  return (
    new Date(x509.validFrom).getTime() <= now.getTime() && now.getTime() < new Date(x509.validTo).getTime()
  );
}

/**
 * Whether `certificate` was signed by the platform CA `issuerId` and that CA by its own parent, the
 * root, which signed itself: the chain of a certificate the platform issued, read from the database
 * each time (a retired CA still verifies what it issued until that expires).
 */
async function chainsToPlatform(
  db: Kysely<Database>,
  certificate: X509Certificate,
  issuerId: string,
  now: Date,
): Promise<boolean> {
  const issuer = await db
    .selectFrom('certificate_authorities')
    .select(['certificate', 'parent_id', 'kind'])
    .where('id', '=', issuerId)
    .executeTakeFirst();
  if (issuer?.kind !== 'issuing' || issuer.parent_id === null) return false;
  const root = await db
    .selectFrom('certificate_authorities')
    .select(['certificate', 'kind'])
    .where('id', '=', issuer.parent_id)
    .executeTakeFirst();
  if (root?.kind !== 'root') return false;
  const issuing = parse(issuer.certificate);
  const anchor = parse(root.certificate);
  if (!issuing || !anchor) return false;
  return (
    within(issuing, now) &&
    within(anchor, now) &&
    certificate.checkIssued(issuing) &&
    certificate.verify(issuing.publicKey) &&
    issuing.checkIssued(anchor) &&
    issuing.verify(anchor.publicKey) &&
    anchor.verify(anchor.publicKey)
  );
}

/**
 * The user `der` (a presented client certificate) signs in, or null (decision 019). It must be the
 * very certificate of an enabled `client_auth_certificates` row (its SHA-256 thumbprint), within its
 * validity; one the platform issued must also be unrevoked (its `certificates` row) and chain to the
 * platform's issuing CA and root. An uploaded one is trusted as registered, by its thumbprint, like
 * a pinned key. A certificate registered to more than one user signs in nobody. The user must be
 * enabled and their primary account active: disabling either stops the certificate without revoking
 * it, so enabling again brings it back (deleting revokes, `ca/revoke.ts`). Nothing is cached: disabling or revoking a certificate stops it at once, on every replica.
 */
export async function acceptedClientCertificate(
  db: Kysely<Database>,
  der: Uint8Array,
  now: Date,
): Promise<ClientCertificateUser | null> {
  const presented = parse(der);
  if (!presented || !within(presented, now)) return null;
  const rows = await db
    .selectFrom('client_auth_certificates')
    .innerJoin('users', 'users.id', 'client_auth_certificates.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.primary_account_id')
    .leftJoin('certificates', 'certificates.id', 'client_auth_certificates.certificate_id')
    .select([
      'client_auth_certificates.id',
      'client_auth_certificates.user_id',
      'client_auth_certificates.source',
      'client_auth_certificates.certificate',
      'client_auth_certificates.not_after',
      'users.active',
      'accounts.active as account_active',
      'certificates.revoked_at',
      'certificates.issuer_id',
      'certificates.certificate as issued_certificate',
    ])
    .where('client_auth_certificates.sha256_fingerprint', '=', presented.fingerprint256)
    .where('client_auth_certificates.enabled', '=', true)
    .execute();
  if (rows.length !== 1) return null;
  const row = rows[0];
  if (!row?.active || !row.account_active) return null;
  if (!Buffer.from(row.certificate).equals(Buffer.from(der))) return null;
  if (row.not_after.getTime() <= now.getTime()) return null;
  if (row.source === 'issued') {
    if (row.issuer_id === null || row.issued_certificate === null) return null;
    if (row.revoked_at !== null) return null;
    if (!Buffer.from(row.issued_certificate).equals(Buffer.from(der))) return null;
    if (!(await chainsToPlatform(db, presented, row.issuer_id, now))) return null;
  }
  return { userId: row.user_id, clientAuthCertificateId: row.id };
}
