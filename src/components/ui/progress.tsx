import { Progress as ArkProgress } from '@ark-ui/react/progress';
import { type ReactNode, useId } from 'react';

interface ProgressProps {
  label: ReactNode;
  value: number;
  max: number;
  /** The value as people read it ("120 of 500"); also what assistive technology announces. */
  valueText: string;
}

/** A determinate progress bar (Ark UI Progress): label, bar and the value in words. */
export function Progress({ label, value, max, valueText }: ProgressProps) {
  const labelId = useId();
  return (
    <ArkProgress.Root className="progress" value={Math.min(value, max)} max={Math.max(max, 1)}>
      <ArkProgress.Label className="progress__label" id={labelId}>
        {label}
      </ArkProgress.Label>
      {/* Named by its label, the value said as words: the bar is "Creating users", at "120 of 500 rows". */}
      <ArkProgress.Track className="progress__track" aria-labelledby={labelId} aria-valuetext={valueText}>
        <ArkProgress.Range className="progress__range" />
      </ArkProgress.Track>
      <ArkProgress.ValueText className="progress__value">{valueText}</ArkProgress.ValueText>
    </ArkProgress.Root>
  );
}
