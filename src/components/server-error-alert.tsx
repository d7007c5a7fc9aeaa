import { useLingui } from '@lingui/react/macro';
import { errorPageText } from '../lib/error-messages.ts';
import { Alert } from './ui/alert.tsx';

/**
 * A failure shown in the page (a form's submission, a list that could not load) in our words, by the
 * rules toasts follow (lib/error-messages.ts): the server's text shows only where we have no
 * sentence of our own and it is not a programming slip.
 */
export function ServerErrorAlert({ error }: { error: unknown }) {
  const { i18n } = useLingui();
  return <Alert tone="error">{errorPageText(error, i18n)}</Alert>;
}
