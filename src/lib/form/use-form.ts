import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type ChangeEvent, type FocusEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { fieldIssues, isValidationCode, type ValidationCode } from '../../../contract/validation.ts';
import { ApiError } from '../api-client.ts';
import { validationMessage } from '../validation-messages.ts';

/*
 * The one form kit of the console (docs/decisions/016-domain-shape.md). Inputs stay uncontrolled and
 * are named by the contract's dotted paths (`service_period.to`, `administrator.user_name`), so the
 * schema's issues and the server's `field` land on them without a mapping, and a failed request
 * leaves everything as the user typed it. The kit is small on purpose: the sign-in page loads it,
 * and that page has a budget (decision 015).
 */

/** The form's inputs by their names, as `FormData` reads them. */
export type FormValues = Readonly<Record<string, string>>;

/** What a field shows: a contract code, or `inUse` for a value the server refused because another record has it. */
export type FieldCode = ValidationCode | 'inUse';
export type FieldCodes = Readonly<Partial<Record<string, FieldCode>>>;

export interface FormOptions<TSchema extends v.GenericSchema> {
  /** Sends the parsed request. A rejection is shown under the field it names, else as the form's error. */
  onSubmit: (request: v.InferOutput<TSchema>) => Promise<unknown>;
  /**
   * What the schema reads, built from the inputs; by default the dotted names nested into objects.
   * A form adds what has no input (the account type) or leaves out an empty optional choice here.
   */
  request?: (values: FormValues) => unknown;
  /**
   * Rules between fields that the schema cannot state on one value (the service period, the repeated
   * password), as codes by field. A field the schema already faults keeps the schema's code.
   */
  refine?: (values: FormValues) => FieldCodes;
  /** What `inUse` says on a field, where the form knows what the value is taken by. */
  inUseMessages?: Readonly<Partial<Record<string, MessageDescriptor>>>;
}

const IN_USE = msg`This value is already in use.`;

/** `{ 'service_period.to': x }` → `{ service_period: { to: x } }`: the request shape the contract describes. */
export function nestValues(values: FormValues): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const path = name.split('.');
    const leaf = path.pop() as string;
    let target = nested;
    for (const key of path) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[leaf] = value;
  }
  return nested;
}

function readValues(form: HTMLFormElement): FormValues {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/**
 * An empty answer reads "required", whatever rule the contract states it with (an empty date "must be
 * a date", an empty language "is not supported"); a code that already says "required" in its own
 * words (`requiredUserName`) stays.
 */
function codeFor(value: string | undefined, code: ValidationCode): ValidationCode {
  if ((value ?? '').trim() !== '' || code.startsWith('required')) return code;
  return 'required';
}

/** A control the server may name: one the user sees and can change, not a hidden carrier. */
function controlOf(form: HTMLFormElement, name: string): HTMLElement | null {
  const control = form.elements.namedItem(name);
  if (control instanceof RadioNodeList) return (control[0] as HTMLElement | undefined) ?? null;
  if (control instanceof HTMLInputElement && control.type === 'hidden') return null;
  return control instanceof HTMLElement ? control : null;
}

/** The first of `names` in document order, not in the order the issues were listed. */
function firstControl(form: HTMLFormElement, names: readonly string[]): HTMLElement | null {
  if (names.length === 0) return null;
  return form.querySelector<HTMLElement>(names.map((name) => `[name="${name}"]`).join(', '));
}

/**
 * The field a failed request names, with its code, when the form has that field: the server's
 * `field` and `code` (decision 016), never its English message. A code we do not know shows as "not
 * allowed" on the field rather than as the server's words.
 */
function serverFieldError(error: unknown, form: HTMLFormElement): { field: string; code: FieldCode } | null {
  if (!(error instanceof ApiError) || error.field === null || error.code === null) return null;
  if (!controlOf(form, error.field)) return null;
  const code: FieldCode =
    error.code === 'inUse' ? 'inUse' : isValidationCode(error.code) ? error.code : 'invalidValue';
  return { field: error.field, code };
}

/** What `useForm` gives the page: props for the form, its fields and its submit button, and its state. */
export interface FormState {
  /** Spread on the `<form>` (the `Form` component does): validation on blur and submit, busy state. */
  props: {
    noValidate: true;
    'aria-busy': true | undefined;
    onSubmit: (event: FormEvent<HTMLFormElement>) => void;
    onBlur: (event: FocusEvent<HTMLFormElement>) => void;
    onChange: (event: ChangeEvent<HTMLFormElement>) => void;
  };
  /** Spread on a field (`<TextField {...form.field('name')} />`): its name and its error text. */
  field: (name: string) => { name: string; error: string | undefined };
  /** The error text of a field, for controls that wire it themselves (a radio group). */
  errorOf: (name: string) => string | undefined;
  /**
   * Checks only `names` (one step of a multi-step form, lib/form/steps.ts): true when they are valid;
   * otherwise shows their errors and focuses the first, unless `silent`.
   */
  checkFields: (form: HTMLFormElement, names: readonly string[], silent?: boolean) => boolean;
  /** Spread on the submit button: announced busy, and refusing a second submission, while one runs. */
  submitProps: { type: 'submit'; busy: boolean; 'aria-disabled': true | undefined };
  pending: boolean;
  /** The failure no field shows: a status, a field this form does not have, no answer at all. */
  error: Error | null;
}

/**
 * Validation, submission and errors of a console form over a contract schema: every issue after a
 * submit, with focus on the first field to fix; one field when the user leaves it after typing in it
 * (leaving an untouched empty field is not yet a mistake), and again as they type once it shows an
 * error; the server's field errors under their fields; one submission at a time.
 */
export function useForm<TSchema extends v.GenericSchema>(
  schema: TSchema,
  options: FormOptions<TSchema>,
): FormState {
  const { i18n } = useLingui();
  const [errors, setErrors] = useState<FieldCodes>({});
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);
  const edited = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const check = (values: FormValues): { issues: FieldCodes; output?: v.InferOutput<TSchema> } => {
    const parsed = v.safeParse(schema, (options.request ?? nestValues)(values));
    const issues: Partial<Record<string, FieldCode>> = {};
    if (!parsed.success) {
      for (const [field, code] of Object.entries(fieldIssues(parsed.issues))) {
        issues[field] = codeFor(values[field], code);
      }
    }
    for (const [field, code] of Object.entries(options.refine?.(values) ?? {})) {
      issues[field] ??= code;
    }
    if (!parsed.success || Object.keys(issues).length > 0) return { issues };
    return { issues, output: parsed.output };
  };

  const checkOne = (form: HTMLFormElement, name: string) => {
    const code = check(readValues(form)).issues[name];
    setErrors((current) => ({ ...current, [name]: code }));
  };

  const showErrors = (form: HTMLFormElement, issues: FieldCodes) => {
    setErrors(issues);
    // Keyboard and screen-reader users land on what to fix and hear its error.
    firstControl(form, Object.keys(issues))?.focus();
  };

  const submit = async (form: HTMLFormElement) => {
    const { issues, output } = check(readValues(form));
    if (output === undefined) {
      showErrors(form, issues);
      return;
    }
    setErrors({});
    setError(null);
    // Also what holds off a reload offered meanwhile (lib/offline/unsaved-changes.ts): `aria-busy`.
    setPending(true);
    try {
      await options.onSubmit(output);
    } catch (failure) {
      if (!mounted.current) return;
      const named = serverFieldError(failure, form);
      if (named) showErrors(form, { [named.field]: named.code });
      else setError(failure instanceof Error ? failure : new Error(String(failure)));
    } finally {
      if (mounted.current) setPending(false);
    }
  };

  const errorOf = (name: string): string | undefined => {
    const code = errors[name];
    if (!code) return undefined;
    return fieldMessage(name, code, options.inUseMessages ?? {}, i18n);
  };

  return {
    props: {
      noValidate: true,
      'aria-busy': pending || undefined,
      onSubmit: (event) => {
        event.preventDefault();
        if (!pending) void submit(event.currentTarget);
      },
      // React's focus and change events bubble, so the form checks every control it holds.
      onBlur: (event) => {
        const { name } = event.target as { name?: unknown };
        if (typeof name !== 'string' || !name) return;
        if (edited.current.has(name) || errors[name]) checkOne(event.currentTarget, name);
      },
      onChange: (event) => {
        const target = event.target as { name?: unknown; type?: unknown };
        if (typeof target.name !== 'string' || !target.name) return;
        edited.current.add(target.name);
        // A choice is complete once made; text is checked again while a shown error is being fixed.
        if (target.type === 'radio' || errors[target.name]) checkOne(event.currentTarget, target.name);
      },
    },
    field: (name) => ({ name, error: errorOf(name) }),
    errorOf,
    checkFields: (form, names, silent = false) => {
      const { issues } = check(readValues(form));
      const own = Object.fromEntries(Object.entries(issues).filter(([name]) => names.includes(name)));
      if (Object.keys(own).length === 0) return true;
      if (!silent) showErrors(form, own);
      return false;
    },
    submitProps: { type: 'submit', busy: pending, 'aria-disabled': pending || undefined },
    pending,
    error,
  };
}

function fieldMessage(
  name: string,
  code: FieldCode,
  inUseMessages: Readonly<Partial<Record<string, MessageDescriptor>>>,
  i18n: I18n,
): string {
  if (code !== 'inUse') return validationMessage(code, i18n);
  return i18n._(inUseMessages[name] ?? IN_USE);
}
