import { Trans } from '@lingui/react/macro';
import { type PageMode, useGoBack } from '../lib/page-mode.ts';
import { Button } from './ui/button.tsx';

export function BackButton({ mode = 'view' }: { mode?: PageMode }) {
  const goBack = useGoBack(mode);
  return (
    <Button variant="link" className="back-button" onClick={goBack}>
      <span aria-hidden="true">← </span>
      <Trans>Back</Trans>
    </Button>
  );
}
