import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import type { ClientAuthCertificate, ClientAuthSource } from '../../../../contract/schemas/client-auth.ts';
import { CertificateStatusBadge } from '../../../components/certificate-status-badge.tsx';
import { ClientCertificateDialog } from '../../../components/client-certificate/client-certificate-dialog.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { notify } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { userDate } from '../../../lib/dates.ts';
import { errorPageText } from '../../../lib/error-messages.ts';
import {
  useGenerateClientAuthCertificate,
  useSendClientAuthSetupMail,
  useSetClientAuthEnabled,
} from '../mutations.ts';
import { type CertificateOwner, clientAuthListQueryOptions } from '../queries.ts';

import { UploadCertificateForm } from './upload-certificate-form.tsx';
import './client-auth.css';
import { PageTitle } from '../../../components/page-title.tsx';

const SOURCE_LABELS: Record<ClientAuthSource, MessageDescriptor> = {
  issued: msg`Generated`,
  uploaded: msg`Uploaded`,
};

/**
 * The client-authentication certificates of a person or a service user (decision 019, routes
 * `/access/administrators/{id}/client-auth` and `/access/service-user/{id}/client-auth`): the list
 * with each one's enabled switch, generating one in the browser, uploading one, and for people the
 * mail that tells them certificate sign-in is being set up. `upload` is the route's way to the upload
 * page (people) or null to upload in a dialog (service users).
 */
export function ClientAuthPage({
  owner,
  userName,
  manage,
  own,
  upload,
}: {
  owner: CertificateOwner;
  userName: string;
  /** Whether the certificates are the viewer's own. */
  own: boolean;
  /** Whether the viewer may change the certificates (the server decides anyway). */
  manage: boolean;
  upload: ReactNode | null;
}) {
  const certificates = useQuery(clientAuthListQueryOptions(owner));
  const [generating, setGenerating] = useState(false);
  const generate = useGenerateClientAuthCertificate(owner);
  const [uploading, setUploading] = useState(false);
  return (
    <section className="page client-auth" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Client certificates of {userName}</Trans>
      </PageTitle>
      <p className="client-auth__hint">
        <Trans>
          A client certificate signs its user in without a password once certificate sign-in is on for the
          account. Disable a certificate to stop it at once; a generated one can also be revoked on its
          certificate page.
        </Trans>
      </p>
      {manage ? (
        <div className="client-auth__actions">
          <NeedsConnection>
            {(gate) => (
              <Button {...gate.controlProps} onClick={() => setGenerating(true)}>
                <Trans>Generate certificate</Trans>
              </Button>
            )}
          </NeedsConnection>
          {upload ?? (
            <NeedsConnection>
              {(gate) => (
                <Button variant="secondary" {...gate.controlProps} onClick={() => setUploading(true)}>
                  <Trans>Upload certificate</Trans>
                </Button>
              )}
            </NeedsConnection>
          )}
          {owner.kind === 'person' ? <SetupMailButton userId={owner.id} /> : null}
        </div>
      ) : null}
      <QueryStatus
        query={certificates}
        pendingText={<Trans>Loading client certificates…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: <Trans>No client certificate yet.</Trans>,
        }}
      >
        {({ items }) => <CertificateTable owner={owner} certificates={items} manage={manage} />}
      </QueryStatus>
      {manage ? (
        <ClientCertificateDialog
          issuer={generate}
          userName={userName}
          forSomeoneElse={!own}
          open={generating}
          onOpenChange={setGenerating}
        />
      ) : null}
      {manage && upload === null ? (
        <Dialog open={uploading} onOpenChange={setUploading} title={<Trans>Upload certificate</Trans>}>
          <UploadCertificateForm
            owner={owner}
            onUploaded={() => setUploading(false)}
            onCancel={() => setUploading(false)}
          />
        </Dialog>
      ) : null}
    </section>
  );
}

function SetupMailButton({ userId }: { userId: string }) {
  const { t, i18n } = useLingui();
  const send = useSendClientAuthSetupMail(userId);
  return (
    <NeedsConnection>
      {(gate) => (
        <Button
          variant="secondary"
          busy={send.isPending}
          {...gate.controlProps}
          onClick={() => {
            if (send.isPending) return;
            send.mutate(undefined, {
              onSuccess: () => notify('success', t`The certificate sign-in setup e-mail was sent.`),
              onError: (error) => notify('error', errorPageText(error, i18n)),
            });
          }}
        >
          <Trans>Send setup e-mail</Trans>
        </Button>
      )}
    </NeedsConnection>
  );
}

function CertificateTable({
  owner,
  certificates,
  manage,
}: {
  owner: CertificateOwner;
  certificates: readonly ClientAuthCertificate[];
  manage: boolean;
}) {
  const { i18n, t } = useLingui();
  const viewer = useProfile();
  const setEnabled = useSetClientAuthEnabled(owner);
  return (
    <>
      {setEnabled.error ? <FormErrorAlert error={setEnabled.error} /> : null}
      <TableFrame label={t`Client certificates table`}>
        <table className="list-table client-auth__table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Common name</Trans>
              </th>
              <th scope="col">
                <Trans>Expires</Trans>
              </th>
              <th scope="col">
                <Trans>SHA-256 thumbprint</Trans>
              </th>
              <th scope="col">
                <Trans>Source</Trans>
              </th>
              <th scope="col">
                <Trans>Status</Trans>
              </th>
              <th scope="col">
                <Trans>Enabled</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {certificates.map((certificate) => {
              const name = certificate.common_name;
              const pending = setEnabled.isPending && setEnabled.variables?.certificate.id === certificate.id;
              return (
                <tr key={certificate.id}>
                  <th scope="row">
                    {certificate.certificate_id === null ? (
                      name
                    ) : (
                      // The certificate's own page, where it is revoked.
                      <Link to="/ca/certificates/$id" params={{ id: certificate.certificate_id }}>
                        {name}
                      </Link>
                    )}
                  </th>
                  <td>{userDate(certificate.not_after, viewer.date_format, i18n.locale)}</td>
                  <td>
                    <code className="client-auth__thumbprint">{certificate.sha256_fingerprint}</code>
                  </td>
                  <td>{i18n._(SOURCE_LABELS[certificate.source])}</td>
                  <td>
                    <CertificateStatusBadge status={certificate.status} />
                  </td>
                  <td>
                    <NeedsConnection>
                      {(gate) => (
                        <span {...gate.controlProps}>
                          <Switch
                            checked={pending ? !certificate.enabled : certificate.enabled}
                            busy={pending}
                            disabled={!manage || gate.blocked}
                            hideLabel
                            onCheckedChange={(enabled) => {
                              if (setEnabled.isPending) return;
                              setEnabled.mutate(
                                { certificate, enabled },
                                {
                                  onSuccess: () =>
                                    notify(
                                      'success',
                                      enabled
                                        ? t`Certificate ${name} enabled.`
                                        : t`Certificate ${name} disabled.`,
                                    ),
                                },
                              );
                            }}
                          >
                            {t`Enabled: ${name}`}
                          </Switch>
                        </span>
                      )}
                    </NeedsConnection>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableFrame>
    </>
  );
}
