import { useLingui } from '@lingui/react/macro';
import {
  type Organization,
  type OrganizationFields,
  organizationFieldsSchema,
} from '../../../../contract/schemas/organizations.ts';
import { CountrySelectField } from '../../../components/country-select.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { EntityForm, type EntityFormProps } from './form-page.tsx';

/**
 * The form of an organization (account administration §3), its fields in postal order. Name, address,
 * city and country are required; the others say "optional" in their label, so sighted users see what
 * screen readers announce from `required`.
 */
export function OrganizationForm({
  initial,
  onSubmit,
  ...frame
}: EntityFormProps<OrganizationFields, Organization>) {
  const { t } = useLingui();
  const form = useForm(organizationFieldsSchema, { onSubmit });
  return (
    <EntityForm form={form} {...frame}>
      <TextField label={t`Name`} required {...form.field('name')} defaultValue={initial?.name} />
      <TextField label={t`Address`} required {...form.field('address')} defaultValue={initial?.address} />
      <TextField
        label={t`Address 2 (optional)`}
        {...form.field('address2')}
        defaultValue={initial?.address2}
      />
      <div className="form__grid">
        <TextField label={t`City`} required {...form.field('city')} defaultValue={initial?.city} />
        <TextField
          label={t`State or province (optional)`}
          {...form.field('state')}
          defaultValue={initial?.state}
        />
        <TextField
          label={t`Zip code (optional)`}
          {...form.field('zip_code')}
          defaultValue={initial?.zip_code}
        />
      </div>
      <CountrySelectField
        label={t`Country`}
        placeholder={t`Choose a country`}
        required
        {...form.field('country')}
        defaultValue={initial?.country ?? ''}
      />
      <TextField
        label={t`Phone (optional)`}
        type="tel"
        {...form.field('phone')}
        defaultValue={initial?.phone}
      />
    </EntityForm>
  );
}
