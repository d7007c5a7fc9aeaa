import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { REVOCATION_REASONS, type RevocationReason } from '../../../../contract/certificate-policy.ts';
import type { CertificateSummary } from '../../../../contract/schemas/certificates.ts';
import { notify } from '../../../components/notify.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { useRevokeCertificate } from '../mutations.ts';
import { REVOCATION_REASON_LABELS } from './certificate-labels.ts';

type Revocable = Pick<CertificateSummary, 'id' | 'common_name' | 'version'>;

/**
 * Revokes one certificate after the reason is chosen and the revocation confirmed: it cannot be
 * undone, and the CA's revocation list names it at once. Open while `certificate` is set.
 */
export function CertificateRevokeDialog({
  certificate,
  onClose,
}: {
  certificate: Revocable | null;
  onClose: () => void;
}) {
  return certificate ? (
    <RevokeDialog key={certificate.id} certificate={certificate} onClose={onClose} />
  ) : null;
}

function RevokeDialog({ certificate, onClose }: { certificate: Revocable; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const revoke = useRevokeCertificate(certificate.id);
  const [reason, setReason] = useState<RevocationReason>('unspecified');
  const [confirmed, setConfirmed] = useState(false);
  const name = certificate.common_name;
  const close = () => {
    revoke.reset();
    onClose();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!confirmed || revoke.isPending) return;
    revoke.mutate(
      { reason, version: certificate.version },
      {
        onSuccess: () => {
          notify('success', t`Certificate revoked.`);
          close();
        },
      },
    );
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : close())}
      role="alertdialog"
      title={<Trans>Revoke {name}?</Trans>}
      description={
        <Trans>
          A revoked certificate is refused wherever the revocation list is checked. This cannot be undone.
        </Trans>
      }
    >
      <form className="dialog__form" onSubmit={submit} noValidate>
        {revoke.error ? <FormErrorAlert error={revoke.error} /> : null}
        <SelectField
          label={t`Reason`}
          name="reason"
          value={reason}
          options={REVOCATION_REASONS.map((value) => ({
            value,
            label: i18n._(REVOCATION_REASON_LABELS[value]),
          }))}
          onChange={(event) =>
            setReason(REVOCATION_REASONS.find((value) => value === event.target.value) ?? 'unspecified')
          }
        />
        <Checkbox name="confirm" checked={confirmed} onCheckedChange={setConfirmed}>
          <Trans>I understand that the certificate stops being trusted and cannot be restored.</Trans>
        </Checkbox>
        <div className="dialog__actions">
          <Button variant="secondary" onClick={close}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" className="button--danger" busy={revoke.isPending} disabled={!confirmed}>
            <Trans>Revoke certificate</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
