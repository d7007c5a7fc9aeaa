/**
 * Whether leaving the page now would lose what the user typed, for the new-version offer (which
 * reloads the page) and anything else that must ask before leaving.
 */

/** Forms that hold changes the DOM cannot show (controlled inputs, multi-step state) mark them here. */
const unsavedForms = new Set<string>();

export function markUnsavedChanges(formId: string, unsaved: boolean): void {
  if (unsaved) unsavedForms.add(formId);
  else unsavedForms.delete(formId);
}

function changed(element: Element): boolean {
  if (element instanceof HTMLInputElement) {
    if (['search', 'hidden', 'submit', 'button', 'reset'].includes(element.type)) return false;
    if (element.type === 'checkbox' || element.type === 'radio')
      return element.checked !== element.defaultChecked;
    return element.value !== element.defaultValue;
  }
  if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
  if (element instanceof HTMLSelectElement) {
    return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
  }
  return false;
}

/**
 * A form field that differs from the value it started with, or a form that marked its changes. Forms
 * with `data-unsaved-ignore` (searches, filters) do not count.
 */
export function hasUnsavedChanges(): boolean {
  if (unsavedForms.size > 0) return true;
  if (typeof document === 'undefined') return false;
  return Array.from(document.forms).some(
    (form) => form.dataset.unsavedIgnore === undefined && Array.from(form.elements).some(changed),
  );
}
