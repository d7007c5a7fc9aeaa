import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useEffect, useState } from 'react';
import {
  type ClientAuthGenerateForm,
  clientAuthGenerateFormSchema,
  pkcs12ConfirmationIssue,
} from '../../../contract/schemas/client-auth.ts';
import { useForm } from '../../lib/form/use-form.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { SelectField, TextField } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';
import './client-certificate.css';

/** The PKCS#12 file ready to download: its object URL and name. The key itself is already gone. */
interface Download {
  url: string;
  fileName: string;
}

/** A file name from the user name: letters, digits, dot, dash and underscore. */
function fileNameOf(userName: string): string {
  const safe = userName.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return `${safe || 'client-certificate'}.p12`;
}

/**
 * The request that issues the certificate for a CSR: the user's own client-certificate list, or an
 * enrollee's link (decision 033). A TanStack mutation fits as it is.
 */
export interface CertificateIssuer {
  mutateAsync: (csr: string) => Promise<{ certificate: string; chain: string[] }>;
  reset: () => void;
}

/**
 * Generates a client certificate (decisions 019 and 033): the browser makes the key pair and a CSR,
 * the server issues the certificate from the CSR, and the browser packs key, certificate and chain
 * into a PKCS#12 file protected by the password typed here. The key and the password never leave
 * the page; the key is dropped once the file is built, and the file once it was downloaded or the
 * dialog closed. Used by the certificate's holder (the person on their own page, the enrollee on
 * their enrollment link) or by an administrator for someone else, a service user's machine or a
 * person without a browser of their own at hand: then every sentence says whose key the file holds.
 */
export function ClientCertificateDialog({
  issuer,
  userName,
  forSomeoneElse = false,
  open,
  onOpenChange,
}: {
  issuer: CertificateIssuer;
  userName: string;
  /** The viewer makes the file for `userName`, who is not them. */
  forSomeoneElse?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const generate = issuer;
  const [download, setDownload] = useState<Download | null>(null);
  const [downloaded, setDownloaded] = useState(false);

  // The file's URL is revoked whenever it is replaced or the dialog goes away.
  useEffect(() => () => (download ? URL.revokeObjectURL(download.url) : undefined), [download]);

  const close = () => {
    setDownload(null);
    setDownloaded(false);
    generate.reset();
    onOpenChange(false);
  };

  const submit = async ({ key_type, password }: ClientAuthGenerateForm) => {
    const material = await import('./key-material.ts');
    const { keys, csr } = await material.generateKeyAndCsr(key_type, userName);
    const issued = await generate.mutateAsync(csr);
    const p12 = await material.buildPkcs12({
      privateKey: keys.privateKey,
      certificate: issued.certificate,
      chain: issued.chain,
      password,
      friendlyName: userName,
    });
    const blob = new Blob([p12], { type: 'application/x-pkcs12' });
    setDownload({ url: URL.createObjectURL(blob), fileName: fileNameOf(userName) });
  };

  const fileName = download?.fileName ?? '';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      // Once the file is ready, a stray click outside must not lose it before it was saved.
      role={download ? 'alertdialog' : 'dialog'}
      title={
        download ? (
          forSomeoneElse ? (
            <Trans>Download the certificate of {userName}</Trans>
          ) : (
            <Trans>Download your certificate</Trans>
          )
        ) : (
          <Trans>Generate certificate</Trans>
        )
      }
    >
      {download ? (
        <div className="client-certificate__download">
          <p>
            {downloaded && forSomeoneElse ? (
              <Trans>
                The file was downloaded. Give it to {userName} only, and its password by another way; it signs{' '}
                {userName} in. This page keeps no copy of the key.
              </Trans>
            ) : downloaded ? (
              <Trans>
                The file was downloaded. Import it into the browser or key store that signs in, with the
                password you chose. This page keeps no copy of the key.
              </Trans>
            ) : (
              <Trans>
                The certificate was issued. Download the PKCS#12 file now: it holds the private key, which
                exists nowhere else, and opens with the password you chose.
              </Trans>
            )}
          </p>
          <div className="dialog__actions">
            <a
              className={`button ${downloaded ? 'button--secondary' : 'button--primary'}`}
              href={download.url}
              download={download.fileName}
              onClick={() => setDownloaded(true)}
            >
              <Trans>Download {fileName}</Trans>
            </a>
            <Button variant={downloaded ? 'primary' : 'secondary'} onClick={close}>
              <Trans>Done</Trans>
            </Button>
          </div>
        </div>
      ) : (
        <GenerateForm
          onSubmit={submit}
          onCancel={close}
          intro={
            forSomeoneElse ? (
              <Trans>
                Your browser makes the key and puts it only in the file you download: the platform receives a
                certificate request. The certificate is issued in {userName}'s user name and signs {userName}{' '}
                in once enabled.
              </Trans>
            ) : (
              <Trans>
                Your browser makes the key and keeps it: only a certificate request is sent. The certificate
                is issued in your user name and can sign you in once enabled.
              </Trans>
            )
          }
        />
      )}
    </Dialog>
  );
}

function GenerateForm({
  onSubmit,
  onCancel,
  intro,
}: {
  onSubmit: (request: ClientAuthGenerateForm) => Promise<void>;
  onCancel: () => void;
  intro: ReactNode;
}) {
  const { t } = useLingui();
  const form = useForm(clientAuthGenerateFormSchema, {
    onSubmit,
    refine: (values) => {
      const issue = pkcs12ConfirmationIssue(values.password ?? '', values.password_confirmation ?? '');
      return issue ? { password_confirmation: issue } : {};
    },
  });
  return (
    <Form form={form} className="dialog__form">
      <p>{intro}</p>
      <SelectField
        label={t`Key type`}
        {...form.field('key_type')}
        defaultValue="RSA-2048"
        options={[
          { value: 'RSA-2048', label: t`RSA 2048 (works everywhere)` },
          { value: 'ECDSA-P256', label: t`ECDSA P-256 (smaller and faster)` },
        ]}
      />
      <TextField
        label={t`File password`}
        description={t`At least 12 characters. You need it to import the file; it is never sent.`}
        type="password"
        autoComplete="new-password"
        required
        {...form.field('password')}
      />
      <TextField
        label={t`Repeat file password`}
        type="password"
        autoComplete="new-password"
        required
        {...form.field('password_confirmation')}
      />
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button {...form.submitProps}>
          <Trans>Generate</Trans>
        </Button>
      </div>
    </Form>
  );
}
