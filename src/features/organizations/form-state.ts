import { useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import { fieldIssues, VALIDATION_TEXT, type ValidationCode } from '../../../contract/validation.ts';
import { ApiError } from '../../lib/api-client.ts';
import { validationMessage } from '../../lib/validation-messages.ts';

/** A contract code we translate, or a server sentence we have no code for and show as sent. */
type FieldError = { code: ValidationCode } | { text: string };

type FormSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** The server names the failing field first: `country: is not a country that can be chosen`. */
const FIELD_MESSAGE = /^([A-Za-z0-9_]+): (.+)$/;

const CODE_BY_TEXT: ReadonlyMap<string, ValidationCode> = new Map(
  Object.entries(VALIDATION_TEXT).map(([code, text]) => [text, code as ValidationCode]),
);

function firstFieldOf(form: HTMLFormElement, fields: readonly string[]): HTMLElement | null {
  if (fields.length === 0) return null;
  // One selector for all of them, so the first in document order wins, not the first in the list.
  return form.querySelector<HTMLElement>(fields.map((field) => `[name="${field}"]`).join(', '));
}

/**
 * The validation plumbing of the organization and contact forms: the contract schema checks each
 * field when the user leaves it and the whole form on submit, and a 400 that names a field is shown
 * under that field. Anything else the server refuses is kept as the form's error for an alert.
 */
export function useValidatedForm<TSchema extends FormSchema>(schema: TSchema) {
  type Field = keyof TSchema['entries'] & string;
  const fields = Object.keys(schema.entries) as Field[];
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<Partial<Record<Field, FieldError>>>({});
  const [formError, setFormError] = useState<Error | null>(null);
  // Fields the user has typed in: leaving an untouched empty field is not yet a mistake.
  const edited = useRef(new Set<Field>());

  /** An empty answer to a required question reads "required", whatever rule the schema states it with. */
  const errorFor = (value: string, code: ValidationCode): FieldError => ({
    code: value.trim() === '' ? 'required' : code,
  });

  const validateField = (field: Field, value: string) => {
    const result = v.safeParse(schema.entries[field] as v.GenericSchema, value);
    const issue = result.success ? undefined : fieldIssues(result.issues)[''];
    setErrors((current) => ({ ...current, [field]: issue ? errorFor(value, issue) : undefined }));
  };

  const errorOf = (field: Field): string | undefined => {
    const error = errors[field];
    if (!error) return undefined;
    return 'code' in error ? validationMessage(error.code, i18n) : error.text;
  };

  /**
   * What the control named `field` needs: its starting value, its error, and the events that check it
   * on leaving and again while a shown error is being fixed.
   */
  const bind = (field: Field, defaultValue?: string) => ({
    name: field,
    defaultValue,
    error: errorOf(field),
    onChange: (event: { currentTarget: { value: string } }) => {
      edited.current.add(field);
      if (errors[field]) validateField(field, event.currentTarget.value);
    },
    onBlur: (event: { currentTarget: { value: string } }) => {
      if (edited.current.has(field) || errors[field]) validateField(field, event.currentTarget.value);
    },
  });

  /** The parsed form, or null after showing every problem and moving focus to the first one. */
  const parse = (form: HTMLFormElement): v.InferOutput<TSchema> | null => {
    setFormError(null);
    const data = new FormData(form);
    const values = Object.fromEntries(fields.map((field) => [field, String(data.get(field) ?? '')]));
    const parsed = v.safeParse(schema, values);
    if (parsed.success) {
      setErrors({});
      return parsed.output;
    }
    const issues = fieldIssues(parsed.issues);
    const next: Partial<Record<Field, FieldError>> = {};
    for (const field of fields) {
      const code = issues[field];
      if (code) next[field] = errorFor(values[field] ?? '', code);
    }
    setErrors(next);
    firstFieldOf(form, Object.keys(next))?.focus();
    return null;
  };

  /** A failed submission: under its field when the server named one of ours, else the form's alert. */
  const showFailure = (error: Error, form: HTMLFormElement | null) => {
    const match =
      error instanceof ApiError && error.status === 400 ? FIELD_MESSAGE.exec(error.message) : null;
    const field = match?.[1] as Field | undefined;
    const text = match?.[2];
    if (!field || !text || !fields.includes(field)) {
      setFormError(error);
      return;
    }
    const code = CODE_BY_TEXT.get(text);
    setErrors((current) => ({ ...current, [field]: code ? { code } : { text } }));
    if (form) firstFieldOf(form, [field])?.focus();
  };

  return { bind, errorOf, validateField, parse, showFailure, formError };
}
