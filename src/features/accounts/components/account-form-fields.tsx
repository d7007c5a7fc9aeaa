import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FRIENDLY_IDENTIFIER_MAX_LENGTH } from '../../../../contract/schemas/tenants.ts';
import { isCalendarDate, servicePeriodIssue } from '../../../../contract/validation.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { PageTitle } from '../../../components/page-title.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { today } from '../../../lib/dates.ts';
import type { FormState, FormValues } from '../../../lib/form/use-form.ts';
import { languageChoices, platformLocales } from '../../../lib/locales.ts';
import { usePublicResource } from '../../../lib/public-data.ts';

export interface AccountFieldDefaults {
  name: string;
  friendlyIdentifier: string;
  locale: string;
  /** `YYYY-MM-DD`; the start date is chosen only when creating. */
  from: string;
  to: string;
}

/**
 * The service period rule of the contract (the server applies the same function), as the form's
 * cross-field rule: checked once the end date is a date at all, else the schema's code stands.
 * `currentTo` is the end date the account has now (`null` for a new one); `from` is the start date
 * when the form has no input for it.
 */
export function servicePeriodRule(currentTo: string | null, from?: string) {
  return (values: FormValues) => {
    const to = values['service_period.to'] ?? '';
    if (!isCalendarDate(to)) return {};
    const period = { from: from ?? values['service_period.from'] ?? '', to };
    const code = servicePeriodIssue(period, today().toString(), currentTo);
    return code ? { 'service_period.to': code } : {};
  };
}

interface AccountFieldsProps {
  mode: 'create' | 'edit';
  defaults: AccountFieldDefaults;
  form: FormState;
  /** A linked account is edited in its identity product: every field is shown but cannot be changed. */
  disabled?: boolean;
}

/**
 * The account's own fields, shared by the edit and create forms (H-03, H-04): name, friendly
 * identifier, service period and language. Inputs are named by the contract's dotted paths, so its
 * issues land on them directly.
 */
export function AccountFields({ mode, defaults, form, disabled = false }: AccountFieldsProps) {
  const { t } = useLingui();
  const { data: locales } = usePublicResource(platformLocales);
  // The date picker offers nothing before the earliest allowed end date, tomorrow.
  const earliestEndDate = today().add({ days: 1 }).toString();
  const languageOptions = [
    { value: '', label: t`Choose a language` },
    ...languageChoices(locales?.items).map((choice) => ({
      value: choice.code,
      label: choice.name,
      lang: choice.lang,
    })),
  ];
  return (
    <>
      <TextField
        label={t`Account name`}
        {...form.field('name')}
        defaultValue={defaults.name}
        autoComplete="organization"
        disabled={disabled}
        required
      />
      {mode === 'edit' ? (
        <TextField
          label={t`Friendly identifier`}
          defaultValue={defaults.friendlyIdentifier}
          description={t`Set when the account was created; it cannot be changed.`}
          disabled={disabled}
          readOnly
        />
      ) : (
        <TextField
          label={t`Friendly identifier (optional)`}
          {...form.field('friendly_identifier')}
          defaultValue={defaults.friendlyIdentifier}
          maxLength={FRIENDLY_IDENTIFIER_MAX_LENGTH}
          autoCapitalize="none"
          spellCheck={false}
          description={t`Letters, digits and # ! $ _ . - only. Left empty, it is derived from the account name.`}
        />
      )}
      <div className="form__grid">
        {mode === 'create' ? (
          <TextField
            label={t`Service start date`}
            {...form.field('service_period.from')}
            type="date"
            defaultValue={defaults.from}
            required
          />
        ) : null}
        <TextField
          label={t`Service end date`}
          {...form.field('service_period.to')}
          type="date"
          defaultValue={defaults.to}
          min={earliestEndDate}
          description={t`Must be after today.`}
          disabled={disabled}
          required
        />
      </div>
      <SelectField
        label={t`Language`}
        {...form.field('locale')}
        defaultValue={defaults.locale}
        options={languageOptions}
        disabled={disabled}
        required
      />
    </>
  );
}

interface AccountFormFrameProps {
  title: ReactNode;
  /** Banners above the form: why it cannot be changed, who the account is created under. */
  notices: ReactNode;
  form: FormState;
  /** After a conflict (412): load the account's current version. */
  onReload?: () => void;
  /**
   * `null` when the form cannot be sent (a linked account is edited elsewhere). `needsConnection`:
   * the change cannot wait in the outbox (a new account), so it is disabled while offline.
   */
  submit: { label: ReactNode; needsConnection?: boolean } | null;
  children: ReactNode;
}

/** The page around an account form: title, notices, the fields, and Send and Cancel (back to the accounts table, H-05). */
export function AccountFormFrame({
  title,
  notices,
  form,
  onReload,
  submit,
  children,
}: AccountFormFrameProps) {
  return (
    <section className="page account-form-page" aria-labelledby="page-title">
      <PageTitle>{title}</PageTitle>
      {notices}
      <Form form={form} className="form account-form" aria-labelledby="page-title" onReload={onReload}>
        {children}
        <div className="form__actions">
          {submit?.needsConnection ? (
            <NeedsConnection>
              {(gate) => (
                <Button {...form.submitProps} {...gate.controlProps}>
                  {submit.label}
                </Button>
              )}
            </NeedsConnection>
          ) : submit ? (
            <Button {...form.submitProps}>{submit.label}</Button>
          ) : null}
          <Link to="/accounts" className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </Form>
    </section>
  );
}
