import { Switch as ArkSwitch } from '@ark-ui/react/switch';
import { type ReactNode, useId } from 'react';
import './switch.css';

interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The accessible name; visually hidden with `hideLabel` where a column header says it. */
  children: ReactNode;
  hideLabel?: boolean;
  disabled?: boolean;
  /** Announced as busy while the change it started is on its way. */
  busy?: boolean;
  /** The name a form and the server's `field` know the switch by (a form kit field). */
  name?: string | undefined;
  /** Already translated; shown under the switch and linked to it through aria-describedby. */
  error?: string | undefined;
}

/**
 * An on/off switch (Ark Switch over a native checkbox with the `switch` role): Space toggles it, its
 * label is its name, and its state is said by the role, not by colour alone.
 */
export function Switch({
  checked,
  onCheckedChange,
  children,
  hideLabel = false,
  disabled = false,
  busy = false,
  name,
  error,
}: SwitchProps) {
  const errorId = `${useId()}-error`;
  return (
    <>
      <ArkSwitch.Root
        className="switch"
        checked={checked}
        disabled={disabled}
        invalid={Boolean(error)}
        name={name}
        onCheckedChange={(details) => onCheckedChange(details.checked)}
        aria-busy={busy || undefined}
      >
        <ArkSwitch.Control className="switch__control">
          <ArkSwitch.Thumb className="switch__thumb" />
        </ArkSwitch.Control>
        <ArkSwitch.Label className={hideLabel ? 'visually-hidden' : 'switch__label'}>
          {children}
        </ArkSwitch.Label>
        {/* A checkbox announced as a switch: on and off, not ticked and unticked. */}
        <ArkSwitch.HiddenInput
          role="switch"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </ArkSwitch.Root>
      {error ? (
        <div className="field__error" id={errorId}>
          {error}
        </div>
      ) : null}
    </>
  );
}
