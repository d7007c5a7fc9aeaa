import { useLingui } from '@lingui/react/macro';
import type { Organization, organizationFieldsSchema } from '../../../../contract/schemas/organizations.ts';
import { CountrySelectField } from '../../../components/country-select.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import type { FieldBindings } from './validated-form.tsx';

interface OrganizationFieldsProps {
  bindings: FieldBindings<typeof organizationFieldsSchema>;
  /** The organization being edited; the create form starts empty. */
  initial?: Organization;
}

/**
 * The fields of an organization (account administration §3) in postal order. Name, address, city
 * and country are required; the others say "optional" in their label, so sighted users see what
 * screen readers announce from `required`.
 */
export function OrganizationFields({ bindings: { bind }, initial }: OrganizationFieldsProps) {
  const { t } = useLingui();
  return (
    <>
      <TextField label={t`Name`} required {...bind('name', initial?.name)} />
      <TextField label={t`Address`} required {...bind('address', initial?.address)} />
      <TextField label={t`Address 2 (optional)`} {...bind('address2', initial?.address2)} />
      <div className="form__grid">
        <TextField label={t`City`} required {...bind('city', initial?.city)} />
        <TextField label={t`State or province (optional)`} {...bind('state', initial?.state)} />
        <TextField label={t`Zip code (optional)`} {...bind('zip_code', initial?.zip_code)} />
      </div>
      <CountrySelectField
        label={t`Country`}
        placeholder={t`Choose a country`}
        required
        {...bind('country', initial?.country ?? '')}
      />
      <TextField label={t`Phone (optional)`} type="tel" {...bind('phone', initial?.phone)} />
    </>
  );
}
