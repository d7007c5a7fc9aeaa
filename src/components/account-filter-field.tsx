import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { accountChoicesQueryOptions } from '../lib/account-choices.ts';
import { SelectField } from './ui/field.tsx';

interface AccountFilterFieldProps {
  /** The chosen account's id; undefined for all. */
  value: string | undefined;
  onChange: (accountId: string | undefined) => void;
  includeInactive?: boolean;
}

/**
 * A list's account filter for viewers who reach several accounts. While the accounts load, an
 * account chosen in the address still shows as chosen.
 */
export function AccountFilterField({ value, onChange, includeInactive = false }: AccountFilterFieldProps) {
  const { t } = useLingui();
  const accounts = useQuery(accountChoicesQueryOptions({ includeInactive }));
  return (
    <SelectField
      label={t`Account`}
      value={value ?? ''}
      disabled={accounts.data === undefined}
      options={[
        { value: '', label: t`All` },
        ...(accounts.data?.items.map((account) => ({ value: account.id, label: account.name })) ??
          (value ? [{ value, label: t`Chosen account` }] : [])),
      ]}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}
