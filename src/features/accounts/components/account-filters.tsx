import { Trans, useLingui } from '@lingui/react/macro';
import { MAX_ENDS_WITHIN_DAYS } from '../../../../contract/schemas/tenants.ts';
import { isCalendarDate } from '../../../../contract/validation.ts';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import {
  type AccountListColumns,
  type AccountListFilters,
  DEFAULT_ACCOUNT_FILTERS,
  DEFAULT_ENDS_WITHIN_DAYS,
  type EndDateFilter,
  type EndDateFilterKind,
  isDefaultFilters,
  STATUS_FILTERS,
  TYPE_FILTERS,
} from '../list-state.ts';

interface AccountFiltersProps {
  filters: AccountListFilters;
  columns: AccountListColumns;
  onChange: (filters: AccountListFilters) => void;
}

function pick<const T extends string>(choices: readonly T[], value: string): T | undefined {
  return choices.find((choice) => choice === value);
}

/** The filters of the accounts table, one labelled control per filtered column (F-02 … F-14). */
export function AccountFilters({ filters, columns, onChange }: AccountFiltersProps) {
  const { t } = useLingui();
  const update = (change: Partial<AccountListFilters>) => onChange({ ...filters, ...change });
  return (
    // A form with the search role rather than <search>, which browsers before 2023 and jsdom, where the
    // component tests run, do not map to the landmark. Filters apply as they change: nothing to submit.
    // biome-ignore lint/a11y/useSemanticElements: see above
    <form
      className="list-filters"
      role="search"
      aria-label={t`Filter accounts`}
      onSubmit={(event) => event.preventDefault()}
    >
      <DebouncedTextField
        label={t`Name`}
        type="search"
        value={filters.name}
        onCommit={(name) => update({ name })}
      />
      <DebouncedTextField
        label={t`Friendly identifier`}
        type="search"
        value={filters.friendlyIdentifier}
        onCommit={(friendlyIdentifier) => update({ friendlyIdentifier })}
      />
      <SelectField
        label={t`Status`}
        value={filters.status}
        options={[
          { value: 'active', label: t`Active` },
          { value: 'inactive', label: t`Inactive` },
          { value: 'all', label: t`All statuses` },
        ]}
        onChange={(event) => update({ status: pick(STATUS_FILTERS, event.target.value) ?? filters.status })}
      />
      {columns.partner ? (
        <>
          <SelectField
            label={t`Type`}
            value={filters.type}
            options={[
              { value: 'all', label: t`All types` },
              { value: 'standard', label: t`Standard` },
              { value: 'partner', label: t`Partner` },
            ]}
            onChange={(event) => update({ type: pick(TYPE_FILTERS, event.target.value) ?? filters.type })}
          />
          <DebouncedTextField
            label={t`Partner account`}
            type="search"
            value={filters.partnerAccountName}
            onCommit={(partnerAccountName) => update({ partnerAccountName })}
          />
        </>
      ) : null}
      <EndDateFilterFields value={filters.endDate} onChange={(endDate) => update({ endDate })} />
      {isDefaultFilters(filters) ? null : (
        <div className="account-filters__reset">
          <Button variant="secondary" onClick={() => onChange(DEFAULT_ACCOUNT_FILTERS)}>
            <Trans>Reset filters</Trans>
          </Button>
        </div>
      )}
    </form>
  );
}

const END_DATE_KINDS = ['any', 'within', 'range'] as const satisfies readonly EndDateFilterKind[];

function EndDateFilterFields({
  value,
  onChange,
}: {
  value: EndDateFilter;
  onChange: (value: EndDateFilter) => void;
}) {
  const { t } = useLingui();
  const changeKind = (kind: EndDateFilterKind) => {
    if (kind === value.kind) return;
    if (kind === 'within') onChange({ kind, days: DEFAULT_ENDS_WITHIN_DAYS });
    else if (kind === 'range') onChange({ kind, from: '', to: '' });
    else onChange({ kind });
  };
  const maxDays = MAX_ENDS_WITHIN_DAYS;
  const daysError = (draft: string) =>
    /^\d{1,4}$/.test(draft) && Number(draft) <= maxDays
      ? undefined
      : t`Enter a whole number of days from 0 to ${maxDays}.`;
  const dateError = (draft: string) =>
    draft === '' || isCalendarDate(draft) ? undefined : t`Enter a date as YYYY-MM-DD.`;
  const rangeError = t`The first date must not be after the second.`;

  return (
    <>
      <SelectField
        label={t`End date`}
        value={value.kind}
        options={[
          { value: 'any', label: t`Any end date` },
          { value: 'within', label: t`Ends within a number of days` },
          { value: 'range', label: t`Ends between two dates` },
        ]}
        onChange={(event) => changeKind(pick(END_DATE_KINDS, event.target.value) ?? value.kind)}
      />
      {value.kind === 'within' ? (
        <DebouncedTextField
          label={t`Days from today`}
          type="number"
          inputMode="numeric"
          min={0}
          max={maxDays}
          step={1}
          value={String(value.days)}
          validate={daysError}
          onCommit={(days) => onChange({ kind: 'within', days: Number(days) })}
        />
      ) : null}
      {value.kind === 'range' ? (
        <>
          <DebouncedTextField
            label={t`Ends on or after`}
            type="date"
            value={value.from}
            validate={(from) =>
              dateError(from) ?? (from !== '' && value.to !== '' && from > value.to ? rangeError : undefined)
            }
            onCommit={(from) => onChange({ ...value, from })}
          />
          <DebouncedTextField
            label={t`Ends on or before`}
            type="date"
            value={value.to}
            validate={(to) =>
              dateError(to) ?? (to !== '' && value.from !== '' && value.from > to ? rangeError : undefined)
            }
            onCommit={(to) => onChange({ ...value, to })}
          />
        </>
      ) : null}
    </>
  );
}
