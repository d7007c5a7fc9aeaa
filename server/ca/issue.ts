import type { Kysely, Selectable } from 'kysely';
import type { ProfilePolicy, SubjectValues } from '../../contract/certificate-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AuditActor } from '../audit/change.ts';
import type { CertificatesTable, Database } from '../db/schema.ts';

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

/**
 * Issues a certificate from a CSR under a policy, in the caller's transaction, with its audit event
 * (CREATE CERTIFICATE). Throws `ApiError` 400 naming the problem (field `csr` or the subject field)
 * and issues nothing when the CSR's signature or key is bad, the key is weak or refused by the
 * policy, or the subject breaks the policy.
 */
export async function issueCertificate(
  _deps: AppDeps,
  _trx: Kysely<Database>,
  _actor: AuditActor,
  _request: IssueRequest,
): Promise<IssuedCertificate> {
  throw new Error('The issuing CA is not wired yet.');
}
