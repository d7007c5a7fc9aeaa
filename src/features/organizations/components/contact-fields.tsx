import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import {
  CONTACT_TYPES,
  type Contact,
  type ContactFields,
  type ContactType,
  contactFieldsSchema,
} from '../../../../contract/schemas/organizations.ts';
import { TextField } from '../../../components/ui/field.tsx';
import { type FormState, useForm } from '../../../lib/form/use-form.ts';
import { EntityForm, type EntityFormProps } from './form-page.tsx';

export const CONTACT_TYPE_LABELS: Readonly<Record<ContactType, MessageDescriptor>> = {
  technical: msg`Technical`,
  administrative: msg`Administrative`,
};

/** The type as native radios in a fieldset: the group is announced with its legend and its error. */
function ContactTypeField({ form, initial }: { form: FormState; initial: Contact | undefined }) {
  const { i18n } = useLingui();
  const errorId = useId();
  const error = form.errorOf('type');
  return (
    <fieldset className="organizations-choice" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">
        <Trans>Type</Trans>
      </legend>
      {CONTACT_TYPES.map((type) => (
        <label key={type} className="organizations-choice__option">
          <input
            type="radio"
            name="type"
            value={type}
            defaultChecked={initial?.type === type}
            required
            aria-invalid={Boolean(error)}
          />
          {i18n._(CONTACT_TYPE_LABELS[type])}
        </label>
      ))}
      {error ? (
        <div className="field__error" id={errorId}>
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}

/** The form of an organization's contact: who, how to reach them, and what they are the contact for. */
export function ContactForm({ initial, onSubmit, ...frame }: EntityFormProps<ContactFields, Contact>) {
  const { t } = useLingui();
  const form = useForm(contactFieldsSchema, { onSubmit });
  return (
    <EntityForm form={form} {...frame}>
      <div className="form__grid">
        <TextField
          label={t`First name`}
          required
          {...form.field('first_name')}
          defaultValue={initial?.first_name}
        />
        <TextField
          label={t`Last name`}
          required
          {...form.field('last_name')}
          defaultValue={initial?.last_name}
        />
      </div>
      <TextField
        label={t`Email`}
        type="email"
        required
        {...form.field('email')}
        defaultValue={initial?.email}
      />
      <div className="form__grid">
        <TextField
          label={t`Phone (optional)`}
          type="tel"
          {...form.field('phone')}
          defaultValue={initial?.phone}
        />
        <TextField label={t`Title (optional)`} {...form.field('title')} defaultValue={initial?.title} />
      </div>
      <ContactTypeField form={form} initial={initial} />
    </EntityForm>
  );
}
