import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import {
  CONTACT_TYPES,
  type Contact,
  type ContactType,
  type contactFieldsSchema,
} from '../../../../contract/schemas/organizations.ts';
import { TextField } from '../../../components/ui/field.tsx';
import type { FieldBindings } from './validated-form.tsx';

export const CONTACT_TYPE_LABELS: Readonly<Record<ContactType, MessageDescriptor>> = {
  technical: msg`Technical`,
  administrative: msg`Administrative`,
};

interface ContactFieldsProps {
  bindings: FieldBindings<typeof contactFieldsSchema>;
  /** The contact being edited; the create form starts empty. */
  initial?: Contact;
}

/** The type as native radios in a fieldset: the group is announced with its legend and its error. */
function ContactTypeField({ bindings, initial }: ContactFieldsProps) {
  const { i18n } = useLingui();
  const errorId = useId();
  const error = bindings.errorOf('type');
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
            onChange={(event) => bindings.validateField('type', event.currentTarget.value)}
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

/** The fields of an organization's contact: who, how to reach them, and what they are the contact for. */
export function ContactFields({ bindings, initial }: ContactFieldsProps) {
  const { t } = useLingui();
  const { bind } = bindings;
  return (
    <>
      <div className="form__grid">
        <TextField label={t`First name`} required {...bind('first_name', initial?.first_name)} />
        <TextField label={t`Last name`} required {...bind('last_name', initial?.last_name)} />
      </div>
      <TextField label={t`Email`} type="email" required {...bind('email', initial?.email)} />
      <div className="form__grid">
        <TextField label={t`Phone (optional)`} type="tel" {...bind('phone', initial?.phone)} />
        <TextField label={t`Title (optional)`} {...bind('title', initial?.title)} />
      </div>
      <ContactTypeField bindings={bindings} initial={initial} />
    </>
  );
}
