import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { SOFTWARE_KEYSTORE_LOCATION } from '../../../../contract/schemas/certificate-profiles.ts';
import type { SecurityPolicy } from '../../../../contract/trust-agent/desktop-client.ts';
import type { Keystore } from '../../../../contract/trust-agent/entities.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import type { ChosenKeystore } from '../issue.ts';
import { pinFormSchema } from '../schemas.ts';

interface DesktopClientKeystoresProps {
  /** The desktop client's keystores; null until it listed them. */
  keystores: Keystore[] | null;
  securityPolicy: SecurityPolicy;
  busy: boolean;
  onInstall: (keystore: ChosenKeystore) => void;
}

/**
 * The desktop client's keystores that can take the certificate: ready ones, and for a `hardware`
 * profile only tokens (the desktop client refuses the others too). The technician picks one and
 * enters its PIN; the desktop client checks the PIN as it installs.
 */
export function DesktopClientKeystores({
  keystores,
  securityPolicy,
  busy,
  onInstall,
}: DesktopClientKeystoresProps) {
  const { t } = useLingui();
  const legendId = useId();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const form = useForm(pinFormSchema, {
    onSubmit: async ({ pin }) => {
      if (!chosen) return;
      onInstall({
        location: chosen.library === null ? SOFTWARE_KEYSTORE_LOCATION : 'hardware_token',
        keystoreId: chosen.id,
        label: chosen.name,
        mechanisms: [],
        pin,
      });
    },
  });
  if (keystores === null) {
    return (
      <p role="status">
        <Trans>Reading the keystores of the desktop client…</Trans>
      </p>
    );
  }
  const usable = keystores.filter(
    (keystore) =>
      keystore.status === 'INITIALIZED' && (securityPolicy === 'software' || keystore.library !== null),
  );
  if (usable.length === 0) {
    return (
      <Alert tone="error">
        <p>
          {securityPolicy === 'hardware' ? (
            <Trans>
              The desktop client finds no hardware token ready for this certificate. Connect the token that
              holds its key; this page finds it by itself.
            </Trans>
          ) : (
            <Trans>The desktop client finds no keystore ready for this certificate.</Trans>
          )}
        </p>
      </Alert>
    );
  }
  const chosen = usable.find((keystore) => keystore.id === chosenId) ?? null;
  const label = chosen?.name ?? '';
  return (
    <>
      <fieldset className="enrollment__choices" aria-labelledby={legendId}>
        <legend id={legendId} className="enrollment__legend">
          <Trans>Keystore of the desktop client</Trans>
        </legend>
        {usable.map((keystore) => (
          <label key={keystore.id} className="enrollment__choice">
            <input
              type="radio"
              name="desktop_client_keystore"
              value={keystore.id}
              checked={chosenId === keystore.id}
              onChange={() => setChosenId(keystore.id)}
            />
            {keystore.name}
          </label>
        ))}
      </fieldset>
      {chosen ? (
        <Form form={form} className="form">
          <TextField
            label={t`PIN of ${label}`}
            {...form.field('pin')}
            type="password"
            autoComplete="off"
            required
          />
          <Button {...form.submitProps} busy={busy} aria-disabled={busy || undefined}>
            <Trans>Install the certificate</Trans>
          </Button>
        </Form>
      ) : null}
    </>
  );
}
