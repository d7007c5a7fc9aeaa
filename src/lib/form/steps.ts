/*
 * Multi-step pages (decision 018 §8.1): one form holds every step, each in a hidden fieldset except
 * the current one, so `FormData` reads them all. These helpers stay out of use-form.ts, which the
 * sign-in page loads (decision 015).
 */
import type { FormState } from './use-form.ts';

/** The input names of each step, in order; step n is `steps[n - 1]`. */
export type StepFields = readonly (readonly string[])[];

/** The step (1-based) whose fields include `field`, or null when no step has it. */
export function stepOfField(steps: StepFields, field: string): number | null {
  const index = steps.findIndex((names) => names.includes(field));
  return index === -1 ? null : index + 1;
}

/** Validates the fields of `step` only, showing their errors; true when the user may go on. */
export function validateFields(form: FormState, element: HTMLFormElement, names: readonly string[]): boolean {
  return form.checkFields(element, names);
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
    if (!form.checkFields(element, steps[index - 1] ?? [], true)) return index;
  }
  return Math.max(1, last);
}
