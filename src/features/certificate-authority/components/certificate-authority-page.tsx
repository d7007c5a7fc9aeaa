import { Trans } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '../../../../contract/paths.ts';
import type {
  CertificateAuthority,
  DistinguishedName,
} from '../../../../contract/schemas/certificate-authority.ts';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { formatTimestamp } from '../../../lib/dates.ts';
import { Temporal } from '../../../lib/temporal.ts';
import { certificateAuthoritiesQueryOptions } from '../queries.ts';
import './certificate-authority.css';
import { DetailsRow } from '../../../components/details-row.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

export type CaPageKind = 'root' | 'issuing';

/**
 * Certificate authority › Root CA and Intermediate CA (`/ca/root`, `/ca/intermediate`): the CA's
 * certificate (subject, issuer, validity, serial, fingerprints, key), where its key is kept, its
 * revocation list (the issuing CA's), and downloads of the certificate and the CRL, which are public.
 */
export function CertificateAuthorityPage({ kind }: { kind: CaPageKind }) {
  const query = useQuery(certificateAuthoritiesQueryOptions());
  return (
    <section className="page ca-page" aria-labelledby="page-title">
      <PageTitle>{kind === 'root' ? <Trans>Root CA</Trans> : <Trans>Intermediate CA</Trans>}</PageTitle>
      <CachedDataNotice updatedAt={query.dataUpdatedAt} />
      <QueryStatus
        query={query}
        pendingText={<Trans>Loading the certificate authority…</Trans>}
        empty={{
          when: ({ items }) => !items.some((ca) => ca.kind === kind),
          content: (
            <p>
              <Trans>This certificate authority has not been created yet.</Trans>
            </p>
          ),
        }}
      >
        {({ items }) => {
          const ca = items.find((item) => item.kind === kind);
          return ca ? <CaDetails ca={ca} /> : null;
        }}
      </QueryStatus>
    </section>
  );
}

function CaDetails({ ca }: { ca: CertificateAuthority }) {
  const { details } = ca;
  const timeZone = Temporal.Now.timeZoneId();
  const instant = (value: string | null) =>
    value === null ? <Trans>Not yet</Trans> : formatTimestamp(Temporal.Instant.from(value), timeZone);
  const commonName = details.subject.common_name ?? details.subject.distinguished_name;
  const fileBase = (commonName || ca.kind).replace(/[^\w.-]+/g, '-');
  return (
    <>
      <p className="ca-page__status">
        {details.isValid ? (
          <span className="ca-status ca-status--valid">
            <Trans>Valid</Trans>
          </span>
        ) : (
          <span className="ca-status ca-status--invalid">
            <Trans>Not valid now</Trans>
          </span>
        )}
      </p>
      <section aria-labelledby="ca-downloads">
        <h2 id="ca-downloads">
          <Trans>Downloads</Trans>
        </h2>
        <p className="ca-page__downloads">
          <a
            className="button button--secondary"
            href={apiPaths.certificateAuthority.certificate(ca.id, 'crt')}
            download={`${fileBase}.crt`}
          >
            <Trans>Certificate (.crt, DER)</Trans>
          </a>
          <a
            className="button button--secondary"
            href={apiPaths.certificateAuthority.certificate(ca.id, 'pem')}
            download={`${fileBase}.pem`}
          >
            <Trans>Certificate (.pem)</Trans>
          </a>
          {ca.crl_url !== null ? (
            <a
              className="button button--secondary"
              href={apiPaths.certificateAuthority.crl(ca.id)}
              download={`${fileBase}.crl`}
            >
              <Trans>Revocation list (.crl)</Trans>
            </a>
          ) : null}
        </p>
      </section>
      <section aria-labelledby="ca-certificate">
        <h2 id="ca-certificate">
          <Trans>Certificate</Trans>
        </h2>
        <dl className="details">
          <DetailsRow label={<Trans>Subject</Trans>}>
            <Name name={details.subject} />
          </DetailsRow>
          <DetailsRow label={<Trans>Issuer</Trans>}>
            <Name name={details.issuer} />
          </DetailsRow>
          <DetailsRow label={<Trans>Valid from</Trans>}>{instant(details.validFrom)}</DetailsRow>
          <DetailsRow label={<Trans>Valid to</Trans>}>{instant(details.validTo)}</DetailsRow>
          <DetailsRow label={<Trans>Serial number</Trans>}>
            <code className="ca-page__hex">{details.serial_number}</code>
          </DetailsRow>
          <DetailsRow label={<Trans>SHA-256 fingerprint</Trans>}>
            <code className="ca-page__hex">{details.sha256_fingerprint}</code>
          </DetailsRow>
          <DetailsRow label={<Trans>SHA-1 fingerprint</Trans>}>
            <code className="ca-page__hex">{details.sha1_fingerprint}</code>
          </DetailsRow>
          <DetailsRow label={<Trans>Key algorithm</Trans>}>{details.key_algorithm}</DetailsRow>
          <DetailsRow label={<Trans>Signature algorithm</Trans>}>{details.signature_algorithm}</DetailsRow>
          <DetailsRow label={<Trans>Key custody</Trans>}>
            {ca.key_custody === 'pkcs11' ? (
              <Trans>In a hardware security module (PKCS#11); the key never leaves it</Trans>
            ) : (
              <Trans>Encrypted in the database under the operator’s key</Trans>
            )}
          </DetailsRow>
          <DetailsRow label={<Trans>Published at</Trans>}>
            <code className="ca-page__hex">{ca.certificate_url}</code>
          </DetailsRow>
        </dl>
      </section>
      {ca.crl_url !== null ? (
        <section aria-labelledby="ca-crl">
          <h2 id="ca-crl">
            <Trans>Revocation list</Trans>
          </h2>
          <dl className="details">
            <DetailsRow label={<Trans>CRL number</Trans>}>{ca.crl_number}</DetailsRow>
            <DetailsRow label={<Trans>This update</Trans>}>{instant(ca.crl_this_update)}</DetailsRow>
            <DetailsRow label={<Trans>Next update</Trans>}>{instant(ca.crl_next_update)}</DetailsRow>
            <DetailsRow label={<Trans>CRL address</Trans>}>
              <code className="ca-page__hex">{ca.crl_url}</code>
            </DetailsRow>
          </dl>
        </section>
      ) : null}
    </>
  );
}

/** A distinguished name as written in the certificate, its common name first for the eye. */
function Name({ name }: { name: DistinguishedName }) {
  return (
    <>
      {name.common_name ? <span className="ca-page__name">{name.common_name}</span> : null}
      <code className="ca-page__hex">{name.distinguished_name}</code>
    </>
  );
}
