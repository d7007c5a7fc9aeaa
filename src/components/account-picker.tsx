import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import './role-picker.css';
import { Checkbox } from './ui/checkbox.tsx';

export interface AccountChoice {
  id: string;
  name: string;
}

interface AccountPickerProps {
  legend: string;
  /** The input name of every choice. */
  name: string;
  accounts: readonly AccountChoice[];
  /** The accounts chosen when the form opens. */
  selected: ReadonlySet<string>;
  /** What the list says while it cannot offer the accounts (loading, failed). */
  status?: string | undefined;
  error?: string | undefined;
}

/**
 * Further accounts a user is added to, as checkboxes (decision 039): being added lets the user see
 * an account's data. Chosen accounts no longer offered (out of the list) stay chosen through hidden
 * inputs, so an edit never drops what it did not show.
 */
export function AccountPicker({ legend, name, accounts, selected, status, error }: AccountPickerProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const offered = new Set(accounts.map((account) => account.id));
  const hidden = [...selected].filter((account) => !offered.has(account));
  return (
    <fieldset
      className="role-picker"
      name={name}
      tabIndex={-1}
      aria-invalid={Boolean(error) || undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="role-picker__legend">{legend}</legend>
      {error ? (
        <div className="field__error" id={errorId}>
          {error}
        </div>
      ) : null}
      {status ? <p className="field__hint">{status}</p> : null}
      {accounts.length === 0 && !status ? (
        <p className="field__hint">
          <Trans>There are no other accounts to add.</Trans>
        </p>
      ) : (
        <ul className="account-picker__list">
          {accounts.map((account) => (
            <li key={account.id}>
              <Checkbox name={name} value={account.id} defaultChecked={selected.has(account.id)}>
                {account.name}
              </Checkbox>
            </li>
          ))}
        </ul>
      )}
      {hidden.map((account) => (
        <input key={account} type="hidden" name={name} value={account} />
      ))}
    </fieldset>
  );
}
