import { type ComponentProps, type ReactNode, useId } from 'react';

interface FieldFrameProps {
  label: ReactNode;
  /** Already translated; shown under the control and linked to it through aria-describedby. */
  error?: string | undefined;
  required?: boolean;
  /** A hint that stays visible under the control, linked through aria-describedby. */
  description?: string | undefined;
}

/** What the control of a field carries so that assistive technology reads it with its label and texts. */
interface ControlProps {
  id: string;
  required: boolean;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/**
 * Label, control, hint and error text wired together by ids (label `for`, `aria-invalid`,
 * `aria-describedby`). Plain elements rather than Ark's Field: forms are on the first screens, and
 * this is all Field did for them.
 */
function FieldFrame({
  label,
  error,
  required = false,
  description,
  children,
}: Omit<FieldFrameProps, 'children'> & { children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [description ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        required,
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
      })}
      {description ? (
        <div className="field__hint" id={hintId}>
          {description}
        </div>
      ) : null}
      {error ? (
        <div className="field__error" id={errorId}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

type TextFieldProps = Omit<FieldFrameProps, 'children'> & Omit<ComponentProps<'input'>, 'required'>;

export function TextField({ label, error, required, description, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} error={error} required={required ?? false} description={description}>
      {(control) => (
        <input className={['field__control', className].filter(Boolean).join(' ')} {...input} {...control} />
      )}
    </FieldFrame>
  );
}

type TextAreaFieldProps = Omit<FieldFrameProps, 'children'> & Omit<ComponentProps<'textarea'>, 'required'>;

export function TextAreaField({
  label,
  error,
  required,
  description,
  className,
  ...textarea
}: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} error={error} required={required ?? false} description={description}>
      {(control) => (
        <textarea
          className={['field__control', className].filter(Boolean).join(' ')}
          {...textarea}
          {...control}
        />
      )}
    </FieldFrame>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  /** BCP 47 tag when the option text is in another language than the page (native language names). */
  lang?: string;
}

type SelectFieldProps = Omit<FieldFrameProps, 'children'> &
  Omit<ComponentProps<'select'>, 'required' | 'children'> & { options: readonly SelectOption[] };

/** A native select: the platform's own keyboard and screen-reader behaviour on every device. */
export function SelectField({
  label,
  error,
  required,
  description,
  options,
  className,
  ...select
}: SelectFieldProps) {
  return (
    <FieldFrame label={label} error={error} required={required ?? false} description={description}>
      {(control) => (
        <select className={['field__control', className].filter(Boolean).join(' ')} {...select} {...control}>
          {options.map((option) => (
            <option key={option.value} value={option.value} lang={option.lang}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
