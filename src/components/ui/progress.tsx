import { Progress as ArkProgress } from '@ark-ui/react/progress';
import type { ReactNode } from 'react';

interface ProgressProps {
  label: ReactNode;
  value: number;
  max: number;
  /** The value as people read it ("120 of 500"); also what assistive technology announces. */
  valueText: string;
}

/** A determinate progress bar (Ark UI Progress): label, bar and the value in words. */
export function Progress({ label, value, max, valueText }: ProgressProps) {
  return (
    <ArkProgress.Root
      className="progress"
      value={Math.min(value, max)}
      max={Math.max(max, 1)}
      translations={{ value: () => valueText }}
    >
      <ArkProgress.Label className="progress__label">{label}</ArkProgress.Label>
      <ArkProgress.Track className="progress__track">
        <ArkProgress.Range className="progress__range" />
      </ArkProgress.Track>
      <ArkProgress.ValueText className="progress__value" />
    </ArkProgress.Root>
  );
}
