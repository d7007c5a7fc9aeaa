import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useState } from 'react';
import { Button } from './ui/button.tsx';
import { TextField } from './ui/field.tsx';
import './created-token.css';

/**
 * A new API token's value, shown this once with Copy and the warning that it will not be shown again
 * (decision 036, decision 039 §4). Shared by the API-token dialog, the service-user creation page and the
 * enrollment link (which passes its own label and notice). The value lives in the caller's state
 * only: never in a query, the address or storage.
 */
export function CreatedToken({
  name,
  value,
  onDone,
  doneLabel,
  label,
  notice,
  copyFailedText,
}: {
  name: string;
  value: string;
  onDone: () => void;
  doneLabel?: ReactNode;
  /** The value's field label; by default "API token {name}". */
  label?: string;
  /** What the user should know above the value; by default that it will not be shown again. */
  notice?: ReactNode;
  copyFailedText?: ReactNode;
}) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="dialog__form">
      <p>{notice ?? <Trans>Copy this token now. It will not be shown again.</Trans>}</p>
      <TextField
        label={label ?? t`API token ${name}`}
        value={value}
        readOnly
        className="created-token__value"
        onFocus={(event) => event.currentTarget.select()}
        spellCheck={false}
      />
      <p role="status" className="created-token__copied">
        {copied === 'yes' ? <Trans>Copied.</Trans> : null}
        {copied === 'failed'
          ? (copyFailedText ?? <Trans>Could not copy. Select the token and copy it yourself.</Trans>)
          : null}
      </p>
      <div className="dialog__actions">
        <Button variant="secondary" onClick={copy}>
          <Trans>Copy</Trans>
        </Button>
        <Button onClick={onDone}>{doneLabel ?? <Trans>Done</Trans>}</Button>
      </div>
    </div>
  );
}
