import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { SUBJECT_LIST_MAX } from '../../../../contract/schemas/certificates.ts';
import type { PublicEnrollment } from '../../../../contract/schemas/enrollments.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import type { EnrollmentDetails } from '../issue.ts';
import {
  type AskedSubjectField,
  askedSubjectFields,
  detailsFormSchema,
  isMultiValueField,
} from '../schemas.ts';

/** The names of the subject fields on the form (overview §3). */
const SUBJECT_FIELD_LABELS: Readonly<Record<AskedSubjectField, MessageDescriptor>> = {
  organization_name: msg`Organization`,
  organization_units: msg`Organizational units`,
  street_address: msg`Street address`,
  postal_code: msg`Postal code`,
  locality: msg`City`,
  state: msg`State or province`,
  country: msg`Country (two-letter code)`,
  dns_names: msg`DNS names`,
  user_principal_names: msg`User principal names`,
};

interface DetailsStepProps {
  enrollment: PublicEnrollment;
  /** What the user entered before, when they come back to this step. */
  initial: EnrollmentDetails | null;
  onDone: (details: EnrollmentDetails) => void;
}

/**
 * Step 2 (overview §3, §5): the enrollment form. The person's names and e-mail come from the
 * enrollment; the common name and the subject fields the profile asks for are filled in here.
 */
export function DetailsStep({ enrollment, initial, onDone }: DetailsStepProps) {
  const { t, i18n } = useLingui();
  const rules = enrollment.subject_rules;
  const schema = useMemo(() => detailsFormSchema(rules, enrollment.seat_kind), [rules, enrollment.seat_kind]);
  const form = useForm(schema, {
    onSubmit: async ({ subject, ...person }) => {
      const values: EnrollmentDetails['subject'] = { ...subject };
      // The e-mail goes into the certificate where the profile takes e-mail addresses.
      if ((rules.emails ?? 'not_allowed') !== 'not_allowed') values.emails = person.email;
      onDone({ ...person, subject: values });
    },
  });
  const first = initial?.first_name ?? enrollment.first_name;
  const last = initial?.last_name ?? enrollment.last_name;
  return (
    <Form form={form} className="form">
      <TextField label={t`First name`} {...form.field('first_name')} defaultValue={first} required />
      <TextField
        label={t`Last name`}
        {...form.field('last_name')}
        defaultValue={last}
        required={enrollment.seat_kind === 'user'}
      />
      <TextField
        label={t`Email`}
        {...form.field('email')}
        type="email"
        autoComplete="email"
        defaultValue={initial?.email ?? enrollment.email}
        required
      />
      <TextField
        label={t`Common name`}
        {...form.field('common_name')}
        defaultValue={initial?.common_name ?? `${first} ${last}`.trim()}
        description={t`The name the certificate is issued to.`}
        maxLength={64}
        required
      />
      {askedSubjectFields(rules).map((field) => {
        const props = {
          label: i18n._(SUBJECT_FIELD_LABELS[field]),
          ...form.field(`subject.${field}`),
          defaultValue: initial?.subject[field] ?? '',
          required: rules[field] === 'required',
        };
        return isMultiValueField(field) ? (
          <TextAreaField
            key={field}
            {...props}
            rows={2}
            description={t`One per line, up to ${SUBJECT_LIST_MAX}.`}
          />
        ) : (
          <TextField key={field} {...props} />
        );
      })}
      <Button {...form.submitProps}>
        <Trans>Continue</Trans>
      </Button>
    </Form>
  );
}
