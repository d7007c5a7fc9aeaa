import type { ComponentProps, ReactNode } from 'react';

type CheckboxProps = Omit<ComponentProps<'input'>, 'type'> & {
  label: ReactNode;
  /** Shown under the label and linked through aria-describedby (why the choice is disabled). */
  descriptionId?: string | undefined;
};

/**
 * A native checkbox with its label around it: it takes part in `FormData` like every other input of
 * the form kit, and keeps the platform's keyboard and screen-reader behaviour.
 */
export function Checkbox({ label, descriptionId, className, ...input }: CheckboxProps) {
  return (
    <label className={['checkbox', className].filter(Boolean).join(' ')}>
      <input type="checkbox" className="checkbox__control" aria-describedby={descriptionId} {...input} />
      <span className="checkbox__label">{label}</span>
    </label>
  );
}
