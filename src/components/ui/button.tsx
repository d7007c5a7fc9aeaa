import type { ComponentProps } from 'react';

type ButtonVariant = 'primary' | 'secondary' | 'link';

interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  /** Keeps the button focusable and announced while a request runs, instead of disabling it. */
  busy?: boolean;
}

export function Button({
  variant = 'primary',
  busy = false,
  className,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={['button', `button--${variant}`, className].filter(Boolean).join(' ')}
      aria-busy={busy || undefined}
      {...rest}
    />
  );
}
