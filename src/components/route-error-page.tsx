import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, type LinkProps, useRouter } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { errorPageText } from '../lib/error-messages.ts';
import { ForbiddenPage } from './forbidden-page.tsx';
import { MessagePage } from './message-page.tsx';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';

export interface RouteErrorPageProps {
  error: unknown;
  /**
   * What a 404 says. The server answers 404 for an object the viewer may not see as well, so the
   * text must not claim the object does not exist.
   */
  notFound: { title: ReactNode; text: ReactNode };
  /** The title of any other failure to load. */
  failedTitle: ReactNode;
  /** The way back: the list the object belongs to, and the words of the link to it. */
  back: { to: LinkProps['to']; label: ReactNode };
}

/**
 * The one `errorComponent` of the routes that load an object: 403 is the 403 page, 404 says so with
 * the way back, and any other failure says what went wrong in our words (lib/error-messages.ts,
 * never the server's raw text) with a retry beside the way back.
 */
export function RouteErrorPage({ error, notFound, failedTitle, back: { to, label } }: RouteErrorPageProps) {
  const { i18n } = useLingui();
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    // A page that read its object with a suspense query fetches again on retry instead of rethrowing.
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  const back = (
    <Link to={to} className="button button--secondary">
      {label}
    </Link>
  );
  const status = error instanceof ApiError ? error.status : null;
  if (status === 403) return <ForbiddenPage />;
  if (status === 404) {
    return (
      <MessagePage title={notFound.title}>
        <Alert tone="warning">{notFound.text}</Alert>
        <p className="message-page__actions">{back}</p>
      </MessagePage>
    );
  }
  return (
    <MessagePage title={failedTitle}>
      <Alert tone="error">{errorPageText(error, i18n)}</Alert>
      <p className="message-page__actions">
        <Button onClick={() => void router.invalidate()}>
          <Trans>Try again</Trans>
        </Button>
        {back}
      </p>
    </MessagePage>
  );
}
