import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useRef, useState } from 'react';
import {
  CLIENT_AUTH_CERTIFICATE_MAX_BYTES,
  CLIENT_AUTH_UPLOAD_ACCEPT,
} from '../../../../contract/schemas/client-auth.ts';
import { CertificateSummaryDetails } from '../../../components/certificate-summary-details.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FileUpload } from '../../../components/ui/file-upload.tsx';
import { FormErrorAlert } from '../../../components/ui/form.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import type { CertificateSummary } from '../../../lib/certificate-summary.ts';
import { errorPageText } from '../../../lib/error-messages.ts';
import { useUploadClientAuthCertificate } from '../mutations.ts';
import type { CertificateOwner } from '../queries.ts';
import './client-auth.css';
import { formatByteSize } from '../../../lib/byte-size.ts';

/**
 * One certificate file (.crt, .cer, .pem or .der; PEM or DER), checked for its size here before it is
 * sent as it is (`application/x-x509-ca-cert`); the server reads and judges it. A refusal about the
 * file shows under the file, any other above the buttons.
 */
export function UploadCertificateForm({
  owner,
  onUploaded,
  onCancel,
}: {
  owner: CertificateOwner;
  onUploaded: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useLingui();
  const upload = useUploadClientAuthCertificate(owner);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [preview, setPreview] = useState<CertificateSummary | null>(null);
  const latestChoice = useRef<File | null>(null);
  const serverError = upload.error;
  const aboutFile =
    serverError instanceof ApiError && (serverError.field === 'certificate' || serverError.status === 413);
  const limit = formatByteSize(CLIENT_AUTH_CERTIFICATE_MAX_BYTES, i18n.locale);
  const tooLarge = t`This file is larger than ${limit}. A certificate file is far smaller: choose the certificate itself, not a bundle or a key store.`;
  const fileError =
    problem ??
    (aboutFile ? (serverError.status === 413 ? tooLarge : errorPageText(serverError, i18n)) : undefined);

  const notACertificate = t`This file is not an X.509 certificate in PEM or DER format.`;
  const choose = (chosen: File | null) => {
    upload.reset();
    setFile(chosen);
    setPreview(null);
    latestChoice.current = chosen;
    const large = chosen !== null && chosen.size > CLIENT_AUTH_CERTIFICATE_MAX_BYTES;
    setProblem(large ? tooLarge : undefined);
    if (chosen === null || large) return;
    // Read here before anything is sent, so the administrator sees what they are about to trust.
    void readCertificate(chosen).then((summary) => {
      if (chosen !== latestChoice.current) return;
      if (summary === null) setProblem(notACertificate);
      else setPreview(summary);
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    if (!file) {
      setProblem(t`Choose a certificate file.`);
      return;
    }
    if (problem) return;
    upload.mutate(file, { onSuccess: onUploaded });
  };

  return (
    <form className="dialog__form" onSubmit={submit} noValidate aria-busy={upload.isPending || undefined}>
      {serverError && !aboutFile ? <FormErrorAlert error={serverError} /> : null}
      <FileUpload
        label={<Trans>Certificate file</Trans>}
        dropLabel={t`Drop a certificate file here`}
        chooseLabel={<Trans>Choose file</Trans>}
        removeLabel={t`Remove the chosen file`}
        accept={[...CLIENT_AUTH_UPLOAD_ACCEPT]}
        error={fileError}
        description={
          <Trans>
            One X.509 certificate in PEM or DER format (.crt, .cer, .pem or .der), at most {limit}. Only the
            certificate: never upload a private key.
          </Trans>
        }
        onFileChange={choose}
      />
      {preview && !fileError ? (
        <section aria-label={t`The chosen certificate`}>
          <CertificateSummaryDetails certificate={preview} />
        </section>
      ) : null}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" busy={upload.isPending}>
          <Trans>Upload</Trans>
        </Button>
      </div>
    </form>
  );
}

/** The file's certificate as the browser reads it, or null when it holds none. */
async function readCertificate(file: File): Promise<CertificateSummary | null> {
  const [{ summarizeCertificate }, bytes] = await Promise.all([
    import('../../../lib/certificate-summary.ts'),
    file.arrayBuffer(),
  ]);
  try {
    // A PEM file is text; x509 reads the text form from a string, the DER form from bytes.
    const text = new TextDecoder().decode(bytes);
    return summarizeCertificate(text.includes('-----BEGIN CERTIFICATE-----') ? text : bytes);
  } catch {
    return null;
  }
}
