import { Trans } from '@lingui/react/macro';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { TrustAgentGate } from '../../../components/trust-agent/trust-agent-gate.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { useTrustAgent } from '../../../trust-agent/use-trust-agent.ts';

interface TrustAgentSignInPageProps {
  /** Where the console continues, as the sign-in state gave it. */
  returnPath: string;
}

/**
 * The end of a sign-in the trust agent asked for (overview §2, R-10): the user is signed in, and
 * this page connects the agent on this computer to the console (pairing with the code shown on both
 * sides when they have not met) and says when the user may go back to the agent.
 */
export function TrustAgentSignInPage({ returnPath }: TrustAgentSignInPageProps) {
  const agent = useTrustAgent();
  const ready = agent.gate.kind === 'ready' ? agent.gate.agent : null;
  return (
    <PublicLayout title={<Trans>You are signed in</Trans>} wide>
      <p>
        <Trans>
          The trust agent on this computer asked for this sign-in. This page connects it to the console; if
          the agent shows a code, check that it matches the one below before you approve it there.
        </Trans>
      </p>
      <TrustAgentGate gate={agent.gate} onRetry={agent.retry} onPairAgain={agent.pairAgain}>
        {ready ? (
          <Alert tone="success">
            <p>
              <Trans>
                The trust agent {ready.version} on this computer is connected to this console. You can close
                this tab and go back to the trust agent.
              </Trans>
            </p>
          </Alert>
        ) : null}
      </TrustAgentGate>
      <p>
        <a href={returnPath}>
          <Trans>Continue to the console</Trans>
        </a>
      </p>
    </PublicLayout>
  );
}
