import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeading } from './page-heading.tsx';
import { type FormSchema, ValidatedForm, type ValidatedFormProps } from './validated-form.tsx';

interface FormPageProps<TSchema extends FormSchema> extends Omit<ValidatedFormProps<TSchema>, 'onCancel'> {
  title: ReactNode;
  subtitle: ReactNode;
  /** Back and Cancel: create and edit pages are at step 1, so both go to the parent page (overview §2). */
  onLeave: () => void;
}

/** A create or edit page: Back, the title, and the form. */
export function FormPage<TSchema extends FormSchema>({
  title,
  subtitle,
  onLeave,
  ...form
}: FormPageProps<TSchema>) {
  return (
    <section className="page" aria-labelledby="page-title">
      <Button variant="link" className="back-button" onClick={onLeave}>
        <span aria-hidden="true">← </span>
        <Trans>Back</Trans>
      </Button>
      <PageHeading title={title} subtitle={subtitle} />
      <ValidatedForm {...form} onCancel={onLeave} />
    </section>
  );
}
