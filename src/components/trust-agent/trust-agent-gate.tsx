import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { CONSOLE_BASE_PATH } from '../../../contract/paths.ts';
import { TRUST_AGENT_LAUNCH_URL } from '../../../contract/trust-agent/constants.ts';
import type { GateState } from '../../trust-agent/gate.ts';
import type { HandshakeFailure } from '../../trust-agent/shared.ts';
import { Alert } from '../ui/alert.tsx';
import { Button } from '../ui/button.tsx';
import './trust-agent.css';

/** Where the user gets the trust agent: the public client tools page, open with or without a session. */
export const PUBLIC_CLIENT_TOOLS_PATH = `${CONSOLE_BASE_PATH}/client-tools`;

export interface TrustAgentGateProps {
  gate: GateState;
  /** Where the trust agent's download is offered: the public client tools page unless the screen lists it. */
  installHref?: string;
  onRetry: () => void;
  onPairAgain: () => void;
  /** What the screen shows once the agent is ready. */
  children: ReactNode;
}

function ErrorCode({ code }: { code: number }) {
  return (
    <p className="trust-agent__error-code">
      <Trans>Error code: {code}</Trans>
    </p>
  );
}

/**
 * The desktop helper gate (overview §4 and §8): a banner for each state, and the screen's content
 * once the agent is ready. The wording of the spec's message keys is here as source strings.
 */
export function TrustAgentGate({
  gate,
  installHref = PUBLIC_CLIENT_TOOLS_PATH,
  onRetry,
  onPairAgain,
  children,
}: TrustAgentGateProps) {
  const retry = (
    <Button variant="secondary" onClick={onRetry}>
      <Trans>Try again</Trans>
    </Button>
  );
  const pairAgain = (
    <Button variant="secondary" onClick={onPairAgain}>
      <Trans>Pair again</Trans>
    </Button>
  );
  const download = (
    <a className="trust-agent__link" href={installHref}>
      <Trans>Download the trust agent</Trans>
    </a>
  );

  /** While the page retries by itself it says so; after the round, the user retries. */
  const retryOrWait = (waiting: boolean) =>
    waiting ? (
      <p>
        <Trans>This page tries again by itself in a few seconds.</Trans>
      </p>
    ) : (
      <p className="trust-agent__actions">{retry}</p>
    );

  switch (gate.kind) {
    case 'ready':
      return <>{children}</>;
    case 'initializing':
      return (
        <Alert tone="info">
          <p>
            <Trans>Looking for the trust agent on this computer…</Trans>
          </p>
        </Alert>
      );
    case 'pairing': {
      const command = `trust-assistant approve ${gate.code.replace(/\D/g, '')}`;
      return (
        <Alert tone="info">
          <p>
            <Trans>
              Approve this browser in the trust agent on your computer. The agent shows the same code in its
              window or in a notification: approve it there only if both codes match.
            </Trans>
          </p>
          <p>
            <Trans>Pairing code:</Trans> <strong className="trust-agent__pairing-code">{gate.code}</strong>
          </p>
          <p>
            <Trans>
              Where the trust agent runs as a service, approve it from a terminal on this computer with{' '}
              <code>{command}</code>
            </Trans>
          </p>
        </Alert>
      );
    }
    case 'notInstalled':
      // dta.info.dtaRequired (overview §8).
      return (
        <Alert tone="info">
          <p>
            <Trans>
              The trust agent is required. Install it on this computer, then come back to this page.
            </Trans>
          </p>
          <p className="trust-agent__actions">
            {download}
            {gate.waiting ? null : retry}
          </p>
          <p>
            {gate.waiting ? (
              <Trans>This page continues by itself once the trust agent is running.</Trans>
            ) : (
              <Trans>
                This page stopped looking for it: once it is installed and running, choose Try again.
              </Trans>
            )}
          </p>
          <ErrorCode code={gate.code} />
        </Alert>
      );
    case 'notRunning':
      return (
        <Alert tone="warning">
          <p>
            <Trans>The trust agent is installed on this computer but it is not running.</Trans>
          </p>
          <p className="trust-agent__actions">
            {/* Starting it begins a new round of looking, so the page finds the agent once it runs. */}
            <a className="trust-agent__link" href={TRUST_AGENT_LAUNCH_URL} onClick={onRetry}>
              <Trans>Start the trust agent</Trans>
            </a>
            {gate.waiting ? null : retry}
          </p>
          <p>
            <Trans>If it is no longer installed, download the trust agent again.</Trans> {download}
          </p>
          <ErrorCode code={gate.code} />
        </Alert>
      );
    case 'handshakeFailed':
      return (
        <Alert tone="error">
          <HandshakeFailureText reason={gate.reason} />
          {gate.reason === 'agentNotAuthentic' ||
          gate.reason === 'refused' ||
          gate.reason === 'tooManyPairings' ? (
            retryOrWait(gate.waiting)
          ) : (
            <p className="trust-agent__actions">{pairAgain}</p>
          )}
          <ErrorCode code={gate.code} />
        </Alert>
      );
    case 'initializeFailed':
      return (
        <Alert tone="error">
          <p>
            <Trans>The trust agent answered but could not get ready.</Trans>
          </p>
          {retryOrWait(gate.waiting)}
          <ErrorCode code={gate.code} />
        </Alert>
      );
    case 'outdated': {
      const { version, minimum } = gate;
      return (
        <Alert tone="warning">
          <p>
            <Trans>
              The trust agent on this computer is version {version}; this page needs version {minimum} or
              later. Install the latest trust agent.
            </Trans>
          </p>
          <p className="trust-agent__actions">
            {download}
            {gate.waiting ? null : retry}
          </p>
        </Alert>
      );
    }
    case 'invalidVersion': {
      const { version } = gate;
      return (
        <Alert tone="error">
          <p>
            <Trans>
              The trust agent on this computer reports a version that is not valid ({version}). Install the
              trust agent again.
            </Trans>
          </p>
          <p className="trust-agent__actions">
            {download}
            {gate.waiting ? null : retry}
          </p>
        </Alert>
      );
    }
    case 'unsupportedSystem':
      return (
        <Alert tone="warning">
          <p>
            <Trans>
              The trust agent runs on Windows, macOS and Linux computers, not on phones or tablets. Open this
              page on such a computer.
            </Trans>
          </p>
        </Alert>
      );
    case 'disabled':
      return (
        <Alert tone="warning">
          <p>
            <Trans>
              Web access is switched off in the trust agent on this computer. Switch it on in the agent's
              settings.
            </Trans>
          </p>
          {gate.waiting ? (
            <p>
              <Trans>This page continues by itself once it is on.</Trans>
            </p>
          ) : (
            <p className="trust-agent__actions">{retry}</p>
          )}
        </Alert>
      );
    case 'error':
      return (
        <Alert tone="error">
          <p>
            <Trans>Something went wrong with the trust agent.</Trans>
          </p>
          {retryOrWait(gate.waiting)}
        </Alert>
      );
  }
}

function HandshakeFailureText({ reason }: { reason: HandshakeFailure }) {
  switch (reason) {
    case 'agentKeyChanged':
      return (
        <p>
          <Trans>
            The program answering as the trust agent is not the one this browser was paired with. If you
            reinstalled the trust agent, pair again; otherwise do not continue.
          </Trans>
        </p>
      );
    case 'pairingRefused':
      return (
        <p>
          <Trans>
            The pairing was refused in the trust agent. If that was a mistake, pair again and approve the code
            the trust agent shows.
          </Trans>
        </p>
      );
    case 'pairingExpired':
      return (
        <p>
          <Trans>
            The pairing was not approved in the trust agent in time. Pair again and approve the code while
            this page shows it.
          </Trans>
        </p>
      );
    case 'tooManyPairings':
      return (
        <p>
          <Trans>
            Several pairing requests already wait in the trust agent, so it takes no more. List them with{' '}
            <code>trust-assistant pairings</code> on this computer, refuse the ones this page did not make,
            then try again.
          </Trans>
        </p>
      );
    case 'agentNotAuthentic':
    case 'refused':
      return (
        <p>
          <Trans>A secure connection with the trust agent could not be established.</Trans>
        </p>
      );
  }
}
