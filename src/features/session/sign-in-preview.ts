import { SIGN_IN_PREVIEW_ID } from './sign-in-preview-script.ts';

/*
 * The page's end of the sign-in preview (sign-in-preview-script.ts, docs/decisions/029-sign-in-preview.md).
 */

/**
 * The real page takes the preview's place: the username step hands in its field, which gets what was
 * typed into the preview, the focus and the caret if the preview had them; any other first screen
 * (main.tsx) just drops it. Runs in a layout effect, so no frame shows both.
 */
export function takeOverSignInPreview(field: HTMLInputElement | null = null): void {
  const preview = document.getElementById(SIGN_IN_PREVIEW_ID);
  if (!preview) return;
  const typed = preview.hidden ? null : preview.querySelector<HTMLInputElement>('input[name="username"]');
  if (field && typed && typed.value !== '' && field.value === '') {
    field.value = typed.value;
  }
  if (field && typed && document.activeElement === typed) {
    field.focus();
    field.setSelectionRange(typed.selectionStart, typed.selectionEnd, typed.selectionDirection ?? undefined);
  }
  preview.remove();
}

/**
 * The first screen is drawn: index.html's stand-ins leave, its splash and, where that screen is not
 * the username step (which took it over already), its preview.
 */
export function removeStartStandIns(): void {
  document.querySelector('.boot')?.remove();
  takeOverSignInPreview();
}
