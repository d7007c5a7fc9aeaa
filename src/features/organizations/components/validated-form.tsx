import { Trans } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useState } from 'react';
import type * as v from 'valibot';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useValidatedForm } from '../form-state.ts';
import { ReloadOnConflict } from './reload-on-conflict.tsx';

export type FormSchema = Parameters<typeof useValidatedForm>[0];

/** What the fields of a form get from it: their starting values, error texts and checks. */
export type FieldBindings<TSchema extends FormSchema> = Pick<
  ReturnType<typeof useValidatedForm<TSchema>>,
  'bind' | 'errorOf' | 'validateField'
>;

export interface ValidatedFormProps<TSchema extends FormSchema> {
  schema: TSchema;
  submitLabel: ReactNode;
  /** Sends the parsed fields; a rejection is shown under its field or in the form's alert. */
  onSubmit: (fields: v.InferOutput<TSchema>) => Promise<unknown>;
  onCancel: () => void;
  /** After a conflict (412): load the current version; the form starts again from it. */
  onReload?: () => void;
  children: (bindings: FieldBindings<TSchema>) => ReactNode;
}

/** The frame of the organization and contact forms: validation, one submission at a time, Save and Cancel. */
export function ValidatedForm<TSchema extends FormSchema>({
  schema,
  submitLabel,
  onSubmit,
  onCancel,
  onReload,
  children,
}: ValidatedFormProps<TSchema>) {
  const { parse, showFailure, formError, ...bindings } = useValidatedForm(schema);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    const fields = parse(form);
    if (!fields) return;
    setPending(true);
    try {
      await onSubmit(fields);
    } catch (error) {
      showFailure(error instanceof Error ? error : new Error(String(error)), form);
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form organizations-form" onSubmit={submit} noValidate>
      {formError ? <ServerErrorAlert error={formError} /> : null}
      {formError && onReload ? <ReloadOnConflict error={formError} onReload={onReload} /> : null}
      {children(bindings)}
      <div className="organizations-actions">
        <Button type="submit" busy={pending}>
          {submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
