/**
 * Whether leaving the page now would lose what the user typed, for the new-version offer (which
 * reloads the page) and anything else that must ask before leaving. Read from the DOM alone: the
 * console's forms keep their inputs uncontrolled (lib/form), so the document holds every change, and
 * no form has to register with this module, which keeps it off the sign-in page's budget.
 */

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
 * A form field that differs from the value it started with, or a form still sending its submission
 * (`aria-busy`, set by the form kit): leaving then would lose the server's answer, a field error or the
 * conflict it reports. Forms with `data-unsaved-ignore` (searches, filters) do not count.
 */
export function hasUnsavedChanges(): boolean {
  if (typeof document === 'undefined') return false;
  return Array.from(document.forms).some(
    (form) =>
      form.dataset.unsavedIgnore === undefined &&
      (form.getAttribute('aria-busy') === 'true' || Array.from(form.elements).some(changed)),
  );
}
