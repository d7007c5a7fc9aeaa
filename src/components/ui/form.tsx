import { Trans, useLingui } from '@lingui/react/macro';
import type { ComponentProps, ReactNode } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { errorPageText } from '../../lib/error-messages.ts';
import type { FormState } from '../../lib/form/use-form.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import './form.css';

interface FormErrorAlertProps {
  error: Error;
  /** After a conflict (412): load the current version; the form starts again from it. */
  onReload?: (() => void) | undefined;
  /** A form's own sentence for a failure it knows better (sign-in's wrong password); else the shared rules. */
  errorText?: ((error: Error) => string | null) | undefined;
}

/**
 * After a 412 (someone changed the item since the page loaded it), the way to its current version;
 * the alert above it says what happened. Nothing for any other failure.
 */
export function ReloadOnConflict({ error, onReload }: { error: unknown; onReload: () => void }) {
  if (!(error instanceof ApiError && error.status === 412)) return null;
  return (
    <p>
      <Button variant="secondary" onClick={onReload}>
        <Trans>Reload the current version</Trans>
      </Button>
    </p>
  );
}

/**
 * A failed request in the page: a title from the status ("Error 409", account administration §8) over
 * our sentence for its code or status (lib/error-messages.ts), never the server's English where we
 * have words of our own; and after a 412, the way to the current version.
 */
export function FormErrorAlert({ error, onReload, errorText }: FormErrorAlertProps) {
  const { i18n } = useLingui();
  const status = error instanceof ApiError ? error.status : null;
  return (
    <Alert tone="error">
      <p className="form-error__title">
        {status === null ? <Trans>Error</Trans> : <Trans>Error {status}</Trans>}
      </p>
      <p>{errorText?.(error) ?? errorPageText(error, i18n)}</p>
      {onReload ? <ReloadOnConflict error={error} onReload={onReload} /> : null}
    </Alert>
  );
}

type FormProps = Omit<ComponentProps<'form'>, 'onSubmit' | 'onBlur' | 'onChange'> &
  Omit<FormErrorAlertProps, 'error'> & {
    form: FormState;
    children: ReactNode;
  };

/** The `<form>` of `useForm`: its handlers, and the error no field shows above the fields. */
export function Form({ form, onReload, errorText, children, ...rest }: FormProps) {
  return (
    <form {...rest} {...form.props}>
      {form.error ? <FormErrorAlert error={form.error} onReload={onReload} errorText={errorText} /> : null}
      {children}
    </form>
  );
}
