import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import './default-application-picker.css';
import { NeedsConnection } from './offline-notice.tsx';
import { Button } from './ui/button.tsx';
import { SelectField } from './ui/field.tsx';
import { FormErrorAlert } from './ui/form.tsx';

export interface DefaultApplicationChoice {
  app_code: string;
  context: string;
  app_name: string;
}

/**
 * The application a person lands in after signing in, among those they hold a role in (O-25): one
 * select and a button that sends it at once, so it needs a connection. `current` is the stored
 * application code; the choice and `onSave` speak of its context, which the request names. The owner
 * of the request passes `onSave`, its pending state and its error.
 */
export function DefaultApplicationPicker({
  current,
  applications,
  pending,
  error,
  onSave,
}: {
  current: string | null;
  applications: readonly DefaultApplicationChoice[];
  pending: boolean;
  error: Error | null;
  onSave: (context: string) => void;
}) {
  const { t } = useLingui();
  const saved = applications.find((application) => application.app_code === current)?.context ?? '';
  const [chosen, setChosen] = useState(saved);
  const options = [
    ...(saved === '' ? [{ value: '', label: t`Not chosen` }] : []),
    ...applications.map((application) => ({ value: application.context, label: application.app_name })),
  ];
  return (
    <form
      className="default-application-picker"
      aria-label={t`Default application`}
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen === '' || pending) return;
        onSave(chosen);
      }}
    >
      <SelectField
        label={t`Default application`}
        value={chosen}
        options={options}
        onChange={(event) => setChosen(event.currentTarget.value)}
      />
      <NeedsConnection>
        {(gate) => (
          <Button
            type="submit"
            variant="secondary"
            busy={pending}
            disabled={chosen === '' || chosen === saved}
            {...gate.controlProps}
          >
            <Trans>Set default application</Trans>
          </Button>
        )}
      </NeedsConnection>
      {error ? <FormErrorAlert error={error} /> : null}
    </form>
  );
}
