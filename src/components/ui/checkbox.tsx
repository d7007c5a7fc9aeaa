import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import type { ReactNode } from 'react';
import './checkbox.css';

interface CheckboxProps {
  /** Controlled: the state and its change. Leave both out for a box the form reads through `name`. */
  checked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  /** Uncontrolled: the state the box starts in. */
  defaultChecked?: boolean;
  /** The accessible name; may be visually hidden where a column header says it. */
  children: ReactNode;
  disabled?: boolean;
  /** Ids of texts that explain the box (why it is disabled). */
  describedBy?: string | undefined;
  name?: string;
  value?: string;
  className?: string;
}

/**
 * The one checkbox (Ark Checkbox over a native input): Space toggles it, its label is its name, and a
 * disabled box stays visible with the reason linked to it. With `name` and `value` its hidden native
 * input takes part in `FormData` like every other input of a form.
 */
export function Checkbox({
  checked,
  onCheckedChange,
  defaultChecked,
  children,
  disabled = false,
  describedBy,
  name,
  value,
  className,
}: CheckboxProps) {
  return (
    <ArkCheckbox.Root
      className={['checkbox', className].filter(Boolean).join(' ')}
      {...(checked === undefined ? { defaultChecked: defaultChecked ?? false } : { checked })}
      disabled={disabled}
      name={name}
      value={value}
      onCheckedChange={(details) => onCheckedChange?.(details.checked === true)}
    >
      <ArkCheckbox.Control className="checkbox__control">
        <ArkCheckbox.Indicator className="checkbox__indicator">
          <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </ArkCheckbox.Indicator>
      </ArkCheckbox.Control>
      <ArkCheckbox.Label className="checkbox__label">{children}</ArkCheckbox.Label>
      <ArkCheckbox.HiddenInput aria-describedby={describedBy} />
    </ArkCheckbox.Root>
  );
}
