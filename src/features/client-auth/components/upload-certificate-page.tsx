import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { notify } from '../../../components/notify.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { UploadCertificateForm } from './upload-certificate-form.tsx';

/**
 * `/access/administrators/{id}/upload-certificate` (overview §2): one certificate file for a person;
 * once registered, the person's certificates show it.
 */
export function UploadCertificatePage({ userId, userName }: { userId: string; userName: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const back = () => void navigate({ to: '/access/administrators/$id/client-auth', params: { id: userId } });
  return (
    <section className="page client-auth" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Upload a client certificate for {userName}</Trans>
      </PageTitle>
      <UploadCertificateForm
        owner={{ kind: 'person', id: userId }}
        onUploaded={() => {
          notify('success', t`Certificate uploaded.`);
          back();
        }}
        onCancel={back}
      />
    </section>
  );
}
