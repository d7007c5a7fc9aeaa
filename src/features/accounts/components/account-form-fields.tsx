import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { FocusEvent, FormEvent, ReactNode } from 'react';
import { FRIENDLY_IDENTIFIER_MAX_LENGTH } from '../../../../contract/schemas/tenants.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { today } from '../../../lib/dates.ts';
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

interface AccountFieldsProps {
  mode: 'create' | 'edit';
  defaults: AccountFieldDefaults;
  errorOf: (field: string) => string | undefined;
  /** A linked account is edited in its identity product: every field is shown but cannot be changed. */
  disabled?: boolean;
  /** A partner's own primary account: its end date is shown but the partner cannot change it (H-23). */
  endDateLocked?: boolean;
}

/**
 * The account's own fields, shared by the edit and create forms (H-03, H-04): name, friendly
 * identifier, service period and language. Inputs are named by the contract's dotted paths, so its
 * issues land on them directly.
 */
export function AccountFields({
  mode,
  defaults,
  errorOf,
  disabled = false,
  endDateLocked = false,
}: AccountFieldsProps) {
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
        name="name"
        defaultValue={defaults.name}
        autoComplete="organization"
        error={errorOf('name')}
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
          name="friendly_identifier"
          defaultValue={defaults.friendlyIdentifier}
          maxLength={FRIENDLY_IDENTIFIER_MAX_LENGTH}
          autoCapitalize="none"
          spellCheck={false}
          description={t`Letters, digits and # ! $ _ . - only. Left empty, it is derived from the account name.`}
          error={errorOf('friendly_identifier')}
        />
      )}
      <div className="form__grid">
        {mode === 'create' ? (
          <TextField
            label={t`Service start date`}
            name="service_period.from"
            type="date"
            defaultValue={defaults.from}
            error={errorOf('service_period.from')}
            required
          />
        ) : null}
        <TextField
          label={t`Service end date`}
          name="service_period.to"
          type="date"
          defaultValue={defaults.to}
          min={endDateLocked ? undefined : earliestEndDate}
          description={
            endDateLocked
              ? t`Partner administrators cannot change the end date of their own account.`
              : t`Must be after today.`
          }
          error={errorOf('service_period.to')}
          disabled={disabled}
          readOnly={endDateLocked}
          required
        />
      </div>
      <SelectField
        label={t`Language`}
        name="locale"
        defaultValue={defaults.locale}
        options={languageOptions}
        error={errorOf('locale')}
        disabled={disabled}
        required
      />
    </>
  );
}

interface AccountFormFrameProps {
  title: ReactNode;
  /** Banners above the form: why it cannot be changed, what went wrong. */
  notices: ReactNode;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onBlur: (event: FocusEvent<HTMLFormElement>) => void;
  /**
   * `null` when the form cannot be sent (a linked account is edited elsewhere). `needsConnection`:
   * the change cannot wait in the outbox (a new account), so it is disabled while offline.
   */
  submit: { label: ReactNode; pending: boolean; needsConnection?: boolean } | null;
  children: ReactNode;
}

/** The page around an account form: title, notices, the fields, and Send and Cancel (back to the accounts table, H-05). */
export function AccountFormFrame({
  title,
  notices,
  onSubmit,
  onBlur,
  submit,
  children,
}: AccountFormFrameProps) {
  return (
    <section className="page account-form-page" aria-labelledby="page-title">
      <h1 id="page-title" className="page__title">
        {title}
      </h1>
      {notices}
      <form
        className="form account-form"
        aria-labelledby="page-title"
        onSubmit={onSubmit}
        onBlur={onBlur}
        noValidate
      >
        {children}
        <div className="account-form__actions">
          {submit?.needsConnection ? (
            <NeedsConnection>
              {(gate) => (
                <Button type="submit" busy={submit.pending} {...gate.controlProps}>
                  {submit.label}
                </Button>
              )}
            </NeedsConnection>
          ) : submit ? (
            <Button type="submit" busy={submit.pending}>
              {submit.label}
            </Button>
          ) : null}
          <Link to="/accounts" className="button button--secondary">
            <Trans>Cancel</Trans>
          </Link>
        </div>
      </form>
    </section>
  );
}
