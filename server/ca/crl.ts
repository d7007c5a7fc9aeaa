import { AsnConvert } from '@peculiar/asn1-schema';
import { CRLNumber, id_ce_cRLNumber } from '@peculiar/asn1-x509';
import type { Kysely, Selectable } from 'kysely';
import type { CaKeyAlgorithm, RevocationReason } from '../../contract/certificate-policy.ts';
import type { AppDeps } from '../app-deps.ts';
import type { CertificateAuthoritiesTable, Database } from '../db/schema.ts';
import { caAlgorithmParams } from './algorithms.ts';
import { caKeyStore } from './custody.ts';
import { x509 } from './x509.ts';

export type CaDeps = Pick<AppDeps, 'db' | 'config' | 'now'>;

/** RFC 5280 reason codes of the reasons an administrator may give; "unspecified" is left out, as §5.3.1 asks. */
const REASON_CODES: Record<RevocationReason, x509.X509CrlReason | null> = {
  unspecified: null,
  keyCompromise: x509.X509CrlReason.keyCompromise,
  affiliationChanged: x509.X509CrlReason.affiliationChanged,
  superseded: x509.X509CrlReason.superseded,
  cessationOfOperation: x509.X509CrlReason.cessationOfOperation,
  privilegeWithdrawn: x509.X509CrlReason.privilegeWithdrawn,
};

/** Seconds precision: what the CRL's times hold, so the row and the CRL agree. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

/**
 * Signs a new CRL of the CA `caId` in `trx` and stores it on the CA's row, which it locks first, so
 * two processes (a revocation and the scheduled re-sign) never sign the same number twice: the CRL
 * number only grows. An issuing CA's CRL lists every certificate it revoked that has not expired;
 * the root's lists the issuing CAs it revoked (none so far: a CA is retired, not revoked).
 */
export async function signCrl(
  deps: Pick<AppDeps, 'config' | 'now'>,
  trx: Kysely<Database>,
  caId: string,
): Promise<Selectable<CertificateAuthoritiesTable>> {
  const ca = await trx
    .selectFrom('certificate_authorities')
    .selectAll()
    .where('id', '=', caId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const thisUpdate = wholeSeconds(deps.now());
  const nextUpdate = new Date(thisUpdate.getTime() + deps.config.crlValidityHours * 3_600_000);
  const revoked =
    ca.kind === 'issuing'
      ? await trx
          .selectFrom('certificates')
          .select(['serial_number', 'revoked_at', 'revocation_reason'])
          .where('issuer_id', '=', ca.id)
          .where('revoked_at', 'is not', null)
          .where('not_after', '>', thisUpdate)
          .orderBy('revoked_at')
          .execute()
      : [];
  const crlNumber = Number(ca.crl_number) + 1;
  const certificate = new x509.X509Certificate(Buffer.from(ca.certificate));
  const ski = certificate.getExtension(x509.SubjectKeyIdentifierExtension);
  const signer = await caKeyStore(deps.config.caCustody).signer(ca);
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: certificate.subjectName,
      thisUpdate,
      nextUpdate,
      signingAlgorithm: caAlgorithmParams(ca.key_algorithm as CaKeyAlgorithm).signing,
      signingKey: signer.privateKey,
      entries: revoked.map((entry) => {
        const reason = REASON_CODES[entry.revocation_reason ?? 'unspecified'];
        return {
          serialNumber: entry.serial_number,
          revocationDate: wholeSeconds(new Date(entry.revoked_at ?? thisUpdate)),
          ...(reason === null ? {} : { reason }),
        };
      }),
      extensions: [
        ...(ski === null ? [] : [new x509.AuthorityKeyIdentifierExtension(ski.keyId)]),
        new x509.Extension(id_ce_cRLNumber, false, AsnConvert.serialize(new CRLNumber(crlNumber))),
      ],
    },
    signer.crypto,
  );
  return trx
    .updateTable('certificate_authorities')
    .set({
      crl: new Uint8Array(crl.rawData),
      crl_number: crlNumber,
      crl_this_update: thisUpdate,
      crl_next_update: nextUpdate,
    })
    .where('id', '=', ca.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
