import { type ComponentProps, useEffect, useEffectEvent, useState } from 'react';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { TextField } from '../ui/field.tsx';
import { TEXT_FILTER_MAX_LENGTH } from './list-search.ts';

type DebouncedTextFieldProps = Omit<ComponentProps<typeof TextField>, 'value' | 'onChange' | 'error'> & {
  /** The value in effect; the field follows it when it changes elsewhere (reset, Back, a banner). */
  value: string;
  onCommit: (value: string) => void;
  /** An error text for a value that must not be applied. */
  validate?: (value: string) => string | undefined;
};

/**
 * A list filter applied once typing pauses (lib/use-debounced-value.ts), so the list is not asked
 * again for every key. Values the field's rule refuses are shown with their error and not applied.
 */
export function DebouncedTextField({ value, onCommit, validate, ...field }: DebouncedTextFieldProps) {
  const [draft, setDraft] = useState(value);
  const [applied, setApplied] = useState(value);
  if (value !== applied) {
    setApplied(value);
    setDraft(value);
  }
  const settled = useDebouncedValue(draft);
  const error = validate?.(draft);
  const commit = useEffectEvent((next: string) => {
    if (!validate?.(next)) onCommit(next);
  });
  useEffect(() => {
    // `settled === draft`: a value set from elsewhere is not overwritten by the draft it replaced.
    if (settled === draft && settled !== value) commit(settled);
  }, [settled, draft, value]);
  return (
    <TextField
      autoComplete="off"
      maxLength={TEXT_FILTER_MAX_LENGTH}
      {...field}
      value={draft}
      error={error}
      onChange={(event) => setDraft(event.target.value)}
    />
  );
}
