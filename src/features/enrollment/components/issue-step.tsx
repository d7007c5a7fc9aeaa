import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useRef, useState } from 'react';
import { DetailsRow } from '../../../components/details-row.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorPageText } from '../../../lib/error-messages.ts';
import {
  AgentCommandError,
  AlreadyRequestedError,
  type EnrollmentDetails,
  type IssueDependencies,
  type IssueProgress,
  type IssueStage,
  issueCertificate,
  type KeystoreForNewKey,
  MalformedCsrError,
} from '../issue.ts';
import { AgentFailureAlert } from './agent-failure-alert.tsx';
import { useKeyLabel } from './key-type-field.tsx';

interface IssueStepProps {
  keystore: KeystoreForNewKey;
  details: EnrollmentDetails;
  progress: IssueProgress;
  /** The agent and the API, and the page load's one-request record. */
  dependencies: Omit<IssueDependencies, 'onProgress'>;
  onProgress: (progress: IssueProgress) => void;
  onDone: () => void;
}

/**
 * Step 3 (overview §3, §4): a summary, then one button that makes the key and its CSR in the
 * keystore, asks the CA for the certificate, imports it and redeems the enrollment.
 */
export function IssueStep({ keystore, details, progress, dependencies, onProgress, onDone }: IssueStepProps) {
  const [stage, setStage] = useState<IssueStage | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  // State updates wait for a render; the ref stops a second click in the same moment.
  const running = useRef(false);
  const keyLabel = useKeyLabel();

  const issue = async () => {
    if (running.current) return;
    running.current = true;
    setFailure(null);
    try {
      await issueCertificate(keystore, details, progress, {
        ...dependencies,
        onProgress: (next, nextStage) => {
          onProgress(next);
          setStage(nextStage);
        },
      });
      onDone();
    } catch (error) {
      setFailure(error);
      setStage(null);
    } finally {
      running.current = false;
    }
  };

  const blocked = progress.certificate === undefined && dependencies.requested();
  const key = keyLabel(keystore.key);
  return (
    <>
      <dl className="details">
        <DetailsRow label={<Trans>Keystore</Trans>}>{keystore.label}</DetailsRow>
        <DetailsRow label={<Trans>Common name</Trans>}>{details.common_name}</DetailsRow>
        <DetailsRow label={<Trans>Name</Trans>}>
          {details.first_name} {details.last_name}
        </DetailsRow>
        <DetailsRow label={<Trans>Email</Trans>}>{details.email}</DetailsRow>
        <DetailsRow label={<Trans>Key</Trans>}>
          <Trans>{key}, made in the keystore; it never leaves it</Trans>
        </DetailsRow>
      </dl>
      {stage ? <StageStatus stage={stage} /> : null}
      {failure ? <IssueFailure error={failure} /> : null}
      {blocked ? null : (
        <Button
          onClick={() => void issue()}
          busy={stage !== null}
          aria-disabled={stage !== null || undefined}
        >
          {progress.certificate ? <Trans>Finish the enrollment</Trans> : <Trans>Issue the certificate</Trans>}
        </Button>
      )}
    </>
  );
}

function StageStatus({ stage }: { stage: IssueStage }) {
  return (
    <p role="status" className="enrollment__stage">
      {stage === 'generate' ? <Trans>Making the key in the keystore…</Trans> : null}
      {stage === 'request' ? <Trans>The certificate authority is issuing the certificate…</Trans> : null}
      {stage === 'import' ? <Trans>Storing the certificate next to its key…</Trans> : null}
      {stage === 'redeem' ? <Trans>Completing the enrollment…</Trans> : null}
    </p>
  );
}

function IssueFailure({ error }: { error: unknown }) {
  const { i18n } = useLingui();
  if (error instanceof AgentCommandError) return <AgentFailureAlert failure={error.failure} />;
  let text: ReactNode;
  if (error instanceof AlreadyRequestedError) {
    text = (
      <Trans>
        The certificate was already requested from this page. Reload the page to see where the enrollment
        stands.
      </Trans>
    );
  } else if (error instanceof MalformedCsrError) {
    text = (
      <Trans>The trust agent made a certificate request this page cannot use. Update the trust agent.</Trans>
    );
  } else if (error instanceof ApiError && error.status === 409) {
    text = (
      <Trans>
        This enrollment was used already: a certificate was issued for it before. Ask your administrator for a
        new enrollment link if you need another certificate.
      </Trans>
    );
  } else {
    text = errorPageText(error, i18n);
  }
  return (
    <Alert tone="error">
      <p>{text}</p>
    </Alert>
  );
}
