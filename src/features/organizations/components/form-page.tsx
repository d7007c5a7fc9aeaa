import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Form } from '../../../components/ui/form.tsx';
import type { FormState } from '../../../lib/form/use-form.ts';
import { PageHeading } from './page-heading.tsx';

interface FormPageProps {
  title: ReactNode;
  subtitle: ReactNode;
  /** Back: create and edit pages are at step 1, so it goes to the parent page (overview §2), as Cancel does. */
  onLeave: () => void;
  children: ReactNode;
}

/** A create or edit page: Back, the title, and the form. */
export function FormPage({ title, subtitle, onLeave, children }: FormPageProps) {
  return (
    <section className="page" aria-labelledby="page-title">
      <Button variant="link" className="back-button" onClick={onLeave}>
        <span aria-hidden="true">← </span>
        <Trans>Back</Trans>
      </Button>
      <PageHeading title={title} subtitle={subtitle} />
      {children}
    </section>
  );
}

interface EntityFormFrameProps {
  submitLabel: ReactNode;
  onCancel: () => void;
  /** After a conflict (412): load the current version; the form starts again from it. */
  onReload?: (() => void) | undefined;
}

/** How a page uses an organization or contact form: what it starts from and sends, where Cancel leads. */
export interface EntityFormProps<TFields, TInitial> extends EntityFormFrameProps {
  /** The item being edited; a create form starts empty. */
  initial?: TInitial;
  onSubmit: (fields: TFields) => Promise<unknown>;
}

/** The frame of the organization and contact forms: the fields, then Save and Cancel. */
export function EntityForm({
  form,
  submitLabel,
  onCancel,
  onReload,
  children,
}: EntityFormFrameProps & { form: FormState; children: ReactNode }) {
  return (
    <Form form={form} className="form" onReload={onReload}>
      {children}
      <div className="form__actions">
        <Button {...form.submitProps}>{submitLabel}</Button>
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </Form>
  );
}
