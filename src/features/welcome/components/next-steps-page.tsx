import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { PublicLayout } from '../../../components/public-layout.tsx';

interface NextStepsPageProps {
  title: ReactNode;
  explanation: ReactNode;
  steps: readonly { id: string; text: ReactNode }[];
}

/** A public page that says why the console cannot be used and what to do about it, in order. */
export function NextStepsPage({ title, explanation, steps }: NextStepsPageProps) {
  return (
    <PublicLayout title={title}>
      <p>{explanation}</p>
      <h2>
        <Trans>What to do next</Trans>
      </h2>
      <ol>
        {steps.map((step) => (
          <li key={step.id}>{step.text}</li>
        ))}
      </ol>
    </PublicLayout>
  );
}
