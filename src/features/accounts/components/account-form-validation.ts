import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type FocusEvent, type FormEvent, useCallback, useState } from 'react';
import * as v from 'valibot';
import {
  fieldIssues,
  isCalendarDate,
  isServiceEndDateAllowed,
  VALIDATION_TEXT,
  type ValidationCode,
} from '../../../../contract/validation.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { validationMessage } from '../../../lib/validation-messages.ts';

/** A contract code, or `inUse` for a value the server refused with 409 because another record has it. */
export type AccountFieldError = ValidationCode | 'inUse';
export type AccountFieldErrors = Readonly<Partial<Record<string, AccountFieldError>>>;

/** The form's inputs by their dotted names (`service_period.to`), as the contract reports issues. */
export type FormValues = Readonly<Record<string, string>>;

export function formValues(form: HTMLFormElement): FormValues {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

const IN_USE_MESSAGES: Readonly<Record<string, MessageDescriptor>> = {
  friendly_identifier: msg`This friendly identifier is already used by another account.`,
  'administrator.user_name': msg`This user name is already taken.`,
  'administrator.email': msg`This email is already used by another user.`,
};

export function accountFieldMessage(field: string, code: AccountFieldError, i18n: I18n): string {
  if (code !== 'inUse') return validationMessage(code, i18n);
  return i18n._(IN_USE_MESSAGES[field] ?? msg`This value is already in use.`);
}

interface AccountRules {
  /** `YYYY-MM-DD` of today in the viewer's time zone. */
  today: string;
  /** Inputs that must not be empty; an empty one reports `required` rather than a format code. */
  required: readonly string[];
  /**
   * The end date the account has now, `null` for a new one. Keeping it is always allowed, as the
   * server does, so an expired account can still be renamed; a changed one must be after today.
   */
  currentEndDate: string | null;
}

type Checked<TOutput> =
  | { success: true; output: TOutput }
  | { success: false; issues: Partial<Record<string, ValidationCode>> };

/**
 * The contract schema first, then the rules it cannot know by itself: "required" for empty choices
 * and dates, and a service end date after today (H-13) and not before the start.
 */
export function checkAccountForm<TSchema extends v.GenericSchema>(
  schema: TSchema,
  /** What the form would send, before the schema has read it. */
  request: unknown,
  values: FormValues,
  rules: AccountRules,
): Checked<v.InferOutput<TSchema>> {
  const parsed = v.safeParse(schema, request);
  const issues: Partial<Record<string, ValidationCode>> = parsed.success ? {} : fieldIssues(parsed.issues);
  for (const field of rules.required) {
    if ((values[field] ?? '') === '') issues[field] = 'required';
  }
  const to = values['service_period.to'] ?? '';
  const from = values['service_period.from'] ?? '';
  if (to !== rules.currentEndDate && !issues['service_period.to'] && isCalendarDate(to)) {
    if (!isServiceEndDateAllowed(to, rules.today)) issues['service_period.to'] = 'endDateNotInFuture';
    else if (isCalendarDate(from) && to < from) issues['service_period.to'] = 'endDateBeforeStartDate';
  }
  if (Object.keys(issues).length > 0 || !parsed.success) return { success: false, issues };
  return { success: true, output: parsed.output };
}

/**
 * The field a 400 or 409 answer names (`friendly_identifier: …`, decision 008), when the form has it,
 * with the code whose English text the server sent; anything else stays a general error.
 */
export function serverFieldError(
  error: Error | null,
  fields: readonly string[],
): { field: string; code: AccountFieldError } | null {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return null;
  const separator = error.message.indexOf(':');
  if (separator <= 0) return null;
  const field = error.message.slice(0, separator).trim();
  if (!fields.includes(field)) return null;
  if (error.status === 409) return { field, code: 'inUse' };
  const text = error.message.slice(separator + 1).trim();
  const code = (Object.keys(VALIDATION_TEXT) as ValidationCode[]).find(
    (key) => VALIDATION_TEXT[key] === text,
  );
  return { field, code: code ?? 'invalidValue' };
}

/**
 * Field errors and submission of an account form: every issue after a submit, one field at a time
 * when it loses focus, each shown through the contract's messages; a field a server answer names is
 * marked too. Inputs are uncontrolled, so a failed request leaves everything as typed (H-17).
 */
export function useAccountForm<TOutput>(
  validate: (values: FormValues) => Checked<TOutput>,
  serverFields: readonly string[],
) {
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<AccountFieldErrors>({});

  const errorOf = useCallback(
    (field: string) => {
      const code = errors[field];
      return code ? accountFieldMessage(field, code, i18n) : undefined;
    },
    [errors, i18n],
  );

  /** On the form: React's blur bubbles, so one handler serves every input. */
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement) || !target.name) return;
    if (target.disabled || (target instanceof HTMLInputElement && target.readOnly)) return;
    const result = validate(formValues(event.currentTarget));
    const code = result.success ? undefined : result.issues[target.name];
    setErrors((current) => ({ ...current, [target.name]: code }));
  };

  /** Replaces the shown errors and moves to the first field to fix, so keyboard and screen-reader users hear it. */
  const showErrors = (form: HTMLFormElement, issues: AccountFieldErrors) => {
    setErrors(issues);
    const first = Object.keys(issues).find((field) => issues[field]);
    if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  /**
   * The form's submit handler: checks the inputs, then hands the request to `send` together with the
   * handler for a failed request.
   */
  const submitWith =
    (send: (request: TOutput, onFailure: (error: Error) => void) => void) =>
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      const result = validate(formValues(form));
      if (!result.success) {
        showErrors(form, result.issues);
        return;
      }
      showErrors(form, {});
      send(result.output, (error) => {
        const named = serverFieldError(error, serverFields);
        if (named) showErrors(form, { [named.field]: named.code });
      });
    };

  return { errorOf, onBlur, submitWith };
}
