import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import {
  type KeystoreLocation,
  SOFTWARE_KEYSTORE_LOCATION,
} from '../../../../contract/schemas/certificate-profiles.ts';
import type { PublicEnrollment } from '../../../../contract/schemas/enrollments.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { TrustAgentClient } from '../../../trust-agent/client.ts';
import { useTrustAgent } from '../../../trust-agent/use-trust-agent.ts';
import type { EnrollmentDetails, IssueProgress, KeystoreForNewKey } from '../issue.ts';
import { redeemEnrollment, requestEnrollmentCertificate } from '../mutations.ts';
import { CertificateView } from './certificate-view.tsx';
import { ClientCertificateOffer } from './client-certificate-offer.tsx';
import { DetailsStep } from './details-step.tsx';
import { IssueStep } from './issue-step.tsx';
import { KeystoreStep } from './keystore-step.tsx';
import './enrollment.css';

/** The page's steps, in order, as the URL hash names them (page mode "enroll", overview §2). */
export const ENROLLMENT_STEPS = ['keystore', 'details', 'issue', 'done'] as const;
export type EnrollmentStep = (typeof ENROLLMENT_STEPS)[number];

interface EnrollmentPageProps {
  enrollment: PublicEnrollment;
  code: string;
  /** The channel to the agent worker; tests pass their own. */
  agentClient?: TrustAgentClient;
}

/** The furthest step the page's state allows: each builds on the one before, and an issue is final. */
export function reachableSteps(state: {
  keystore: KeystoreForNewKey | null;
  details: EnrollmentDetails | null;
  redeemed: boolean;
}): EnrollmentStep[] {
  if (state.redeemed) return ['done'];
  if (!state.keystore) return ['keystore'];
  if (!state.details) return ['keystore', 'details'];
  return ['keystore', 'details', 'issue'];
}

function stepOf(hash: string): EnrollmentStep | null {
  const name = hash.replace(/^#/, '');
  return (ENROLLMENT_STEPS as readonly string[]).includes(name) ? (name as EnrollmentStep) : null;
}

/**
 * /enrollment/{id}/{code} (overview §2, §4): the enrollee makes a key in a keystore of this
 * computer through the trust agent, the platform CA issues its certificate, and the agent stores the
 * certificate next to the key. The page holds the PIN in memory only, for as long as it is open.
 */
export function EnrollmentPage({ enrollment, code, agentClient }: EnrollmentPageProps) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const hash = useLocation({ select: (location) => location.hash });
  const [location, setLocation] = useState<KeystoreLocation>(SOFTWARE_KEYSTORE_LOCATION);
  const [keystore, setKeystore] = useState<KeystoreForNewKey | null>(null);
  const [details, setDetails] = useState<EnrollmentDetails | null>(null);
  const [progress, setProgress] = useState<IssueProgress>({});
  // One certificate request per page load (overview §4, step 5), whatever the steps do meanwhile.
  const requested = useRef(false);

  const agent = useTrustAgent({
    location: location === SOFTWARE_KEYSTORE_LOCATION ? 'software' : 'hardware',
    watchTokens: !progress.redeemed,
    ...(agentClient ? { client: agentClient } : {}),
  });

  const reachable = reachableSteps({ keystore, details, redeemed: progress.redeemed === true });
  const asked = stepOf(hash);
  const step: EnrollmentStep =
    asked && reachable.includes(asked) ? asked : (reachable.at(-1) as EnrollmentStep);
  const go = (next: EnrollmentStep) => {
    void navigate({ to: '.', hash: next, search: true, params: true });
  };
  const index = ENROLLMENT_STEPS.indexOf(step);
  const titles = [t`Keystore`, t`Your details`, t`Issue`, t`Certificate`];
  const { profile_name: profile, account_name: account } = enrollment;
  const number = index + 1;
  const count = ENROLLMENT_STEPS.length;
  const title = titles[index];

  return (
    <PublicLayout
      wide
      title={<Trans>Certificate enrollment</Trans>}
      subtitle={
        <Trans>
          {profile} for {account}
        </Trans>
      }
    >
      <ol className="enrollment__steps" aria-label={t`Steps`}>
        {ENROLLMENT_STEPS.map((name, position) => (
          <li key={name} className="enrollment__step" aria-current={name === step ? 'step' : undefined}>
            {titles[position]}
          </li>
        ))}
      </ol>
      <h2 className="enrollment__heading">
        <Trans>
          Step {number} of {count}: {title}
        </Trans>
      </h2>
      {step === 'keystore' ? (
        <KeystoreStep
          agent={agent}
          keyTypes={enrollment.key_types}
          location={location}
          onLocationChange={(next) => {
            setLocation(next);
            setKeystore(null);
          }}
          onUnlocked={(chosen) => {
            setKeystore(chosen);
            go('details');
          }}
        />
      ) : null}
      {step === 'details' ? (
        <DetailsStep
          enrollment={enrollment}
          initial={details}
          onDone={(entered) => {
            setDetails(entered);
            go('issue');
          }}
        />
      ) : null}
      {step === 'issue' && keystore && details ? (
        <IssueStep
          keystore={keystore}
          details={details}
          progress={progress}
          dependencies={{
            send: agent.command,
            requestCertificate: (request) => requestEnrollmentCertificate(enrollment.id, code, request),
            redeem: () => redeemEnrollment(enrollment.id, code),
            requested: () => requested.current,
            markRequested: () => {
              requested.current = true;
            },
          }}
          onProgress={setProgress}
          onDone={() => go('done')}
        />
      ) : null}
      {step === 'done' && progress.certificate ? (
        <CertificateView pem={progress.certificate.x509_cert} keystoreLabel={keystore?.label ?? ''} />
      ) : null}
      {step === 'details' || (step === 'issue' && !progress.certificate) ? (
        <p className="enrollment__back">
          <Button variant="secondary" onClick={() => go(ENROLLMENT_STEPS[index - 1] as EnrollmentStep)}>
            <Trans>Back</Trans>
          </Button>
        </p>
      ) : null}
      <ClientCertificateOffer enrollmentId={enrollment.id} code={code} />
    </PublicLayout>
  );
}
