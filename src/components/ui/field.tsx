import { Field } from '@ark-ui/react/field';
import type { ComponentProps, ReactNode } from 'react';

interface FieldFrameProps {
  label: ReactNode;
  /** Already translated; shown under the control and linked to it through aria-describedby. */
  error?: string | undefined;
  required?: boolean;
  /** A hint that stays visible under the control, linked through aria-describedby. */
  description?: string | undefined;
  children: ReactNode;
}

/** Label, control and error text wired together by Ark's Field (ids, aria-invalid, aria-describedby). */
function FieldFrame({ label, error, required = false, description, children }: FieldFrameProps) {
  return (
    <Field.Root className="field" invalid={Boolean(error)} required={required}>
      <Field.Label className="field__label">{label}</Field.Label>
      {children}
      {description ? <Field.HelperText className="field__hint">{description}</Field.HelperText> : null}
      <Field.ErrorText className="field__error">{error}</Field.ErrorText>
    </Field.Root>
  );
}

type TextFieldProps = Omit<FieldFrameProps, 'children'> & Omit<ComponentProps<'input'>, 'required'>;

export function TextField({ label, error, required, description, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame label={label} error={error} required={required ?? false} description={description}>
      <Field.Input className={['field__control', className].filter(Boolean).join(' ')} {...input} />
    </FieldFrame>
  );
}

type TextAreaFieldProps = Omit<FieldFrameProps, 'children'> & Omit<ComponentProps<'textarea'>, 'required'>;

export function TextAreaField({ label, error, required, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} error={error} required={required ?? false}>
      <Field.Textarea className={['field__control', className].filter(Boolean).join(' ')} {...textarea} />
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
      <Field.Select className={['field__control', className].filter(Boolean).join(' ')} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </Field.Select>
    </FieldFrame>
  );
}
