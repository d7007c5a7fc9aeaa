import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { useOfflineSupport } from '../lib/offline/support.ts';
import { hasUnsavedChanges } from '../lib/offline/unsaved-changes.ts';
import { Button } from './ui/button.tsx';
import './offline.css';

/**
 * "A new version is available — Reload", over every page while a new build waits. Reloading with
 * unsaved changes in a form asks first; nothing reloads unless the user says so.
 */
export function UpdateBanner() {
  const { t } = useLingui();
  const { applyUpdate } = useOfflineSupport();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const reloadRef = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (returnFocus) reloadRef.current?.focus();
  }, [confirming, returnFocus]);

  const reload = () => {
    if (hasUnsavedChanges()) setConfirming(true);
    else applyUpdate();
  };

  return (
    <section className="update-banner" aria-label={t`New version`}>
      {confirming ? (
        <>
          <p role="alert">
            <Trans>A form on this page has changes that are not saved. Reloading loses them.</Trans>
          </p>
          <Button
            ref={confirmRef}
            variant="secondary"
            onClick={() => {
              setReturnFocus(true);
              setConfirming(false);
            }}
          >
            <Trans>Not now</Trans>
          </Button>
          <Button className="button--danger" onClick={applyUpdate}>
            <Trans>Reload anyway</Trans>
          </Button>
        </>
      ) : (
        <>
          <p role="status">
            <Trans>A new version is available.</Trans>
          </p>
          <Button ref={reloadRef} onClick={reload}>
            <Trans>Reload</Trans>
          </Button>
        </>
      )}
    </section>
  );
}
