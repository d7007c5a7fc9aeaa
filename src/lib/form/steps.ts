/*
 * Multi-step pages (decision 039 §1): one form holds every step, each in a hidden fieldset except
 * the current one, so `FormData` reads them all. These helpers stay out of use-form.ts, which the
 * sign-in page loads (decision 015).
 */
import type { FormState } from './use-form.ts';

/**
 * The input names of each step, in order; step n is `steps[n - 1]`. A name ending in `.` stands for
 * every input under it (`alias.` for the rows of the aliases editor, however many there are).
 */
export type StepFields = readonly (readonly string[])[];

function matches(names: readonly string[], field: string): boolean {
  return names.some((name) => (name.endsWith('.') ? field.startsWith(name) : name === field));
}

/** The step (1-based) whose fields include `field`, or null when no step has it. */
export function stepOfField(steps: StepFields, field: string): number | null {
  const index = steps.findIndex((names) => matches(names, field));
  return index === -1 ? null : index + 1;
}

/** The inputs of the form that `names` stand for, prefixes expanded. */
function expand(element: HTMLFormElement, names: readonly string[]): string[] {
  const present = [...element.elements].map((control) => (control as HTMLInputElement).name).filter(Boolean);
  return [...new Set([...names, ...present.filter((name) => matches(names, name))])];
}

/** Validates the fields of `step` only, showing their errors; true when the user may go on. */
export function validateFields(form: FormState, element: HTMLFormElement, names: readonly string[]): boolean {
  return form.checkFields(element, expand(element, names));
}

/**
 * The step a page opened at `step` may show: the first earlier step with an invalid field, since
 * later steps build on it (an address shared at step 3 of an empty form opens step 1).
 */
export function reachableStep(
  form: FormState,
  element: HTMLFormElement,
  steps: StepFields,
  step: number,
): number {
  const last = Math.min(step, steps.length);
  for (let index = 1; index < last; index += 1) {
    if (!form.checkFields(element, expand(element, steps[index - 1] ?? []), true)) return index;
  }
  return Math.max(1, last);
}
