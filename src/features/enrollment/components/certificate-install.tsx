import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import {
  type KeystoreLocation,
  SOFTWARE_KEYSTORE_LOCATION,
} from '../../../../contract/schemas/certificate-profiles.ts';
import { type EnrollmentCertificate, securityPolicyOf } from '../../../../contract/schemas/enrollments.ts';
import type { DesktopClientCommands } from '../../../../contract/trust-agent/desktop-client.ts';
import { notify } from '../../../components/notify.ts';
import { TrustAgentGate } from '../../../components/trust-agent/trust-agent-gate.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { errorPageText } from '../../../lib/error-messages.ts';
import type { TrustAgentClient } from '../../../trust-agent/client.ts';
import { useDesktopClient, useTrustAgent } from '../../../trust-agent/use-trust-agent.ts';
import { installCertificate, installWithDesktopClient, NoKeyForCertificateError } from '../install.ts';
import { AgentCommandError, type ChosenKeystore } from '../issue.ts';
import { fetchClientAuthLoginUrl, redeemEnrollment } from '../mutations.ts';
import { useAgentFailureText } from './agent-failure-alert.tsx';
import { DesktopClientKeystores } from './desktop-client-keystores.tsx';
import { KeystoreStep } from './keystore-step.tsx';
import './enrollment.css';

export type InstallState =
  | { kind: 'idle' }
  | { kind: 'installing'; keystore: ChosenKeystore }
  | { kind: 'installed'; keystore: ChosenKeystore }
  | { kind: 'failed'; error: unknown };

/** The certificate as the route loaded it (fetchIssuedCertificate), or why it could not be. */
export type LoadedCertificate = { certificate: EnrollmentCertificate } | { error: unknown };

interface CertificateInstallProps {
  loaded: LoadedCertificate;
  enrollmentId: string;
  /** The enrollment link's secret: the mailed code (decision 021 §6). */
  code: string;
  /** The channels to the agent worker's helpers; tests pass their own. */
  agentClient?: TrustAgentClient;
  desktopClient?: TrustAgentClient<DesktopClientCommands>;
}

/**
 * Installs the certificate of an issued enrollment into the keystore that holds its key (account
 * administration §7): the trust agent's variant, or the desktop client's when a device's own
 * client requested the certificate (enrollment method DDC; Q-77, decision 021 §5).
 */
export function CertificateInstall({ loaded, ...props }: CertificateInstallProps) {
  if ('error' in loaded) return <InstallFailure error={loaded.error} />;
  return loaded.certificate.enrollment_method === 'DDC' ? (
    <DesktopClientInstall issued={loaded.certificate} {...props} />
  ) : (
    <AgentInstall issued={loaded.certificate} {...props} />
  );
}

type VariantProps = Omit<CertificateInstallProps, 'loaded'> & { issued: EnrollmentCertificate };

/**
 * The install's states (Q-80): idle, installing, installed (with the toast, Q-81) and failed. The
 * ref stops a second install in the same moment, as state updates wait for a render.
 */
function useInstall(onFailure?: (error: unknown) => void) {
  const [state, setState] = useState<InstallState>({ kind: 'idle' });
  const running = useRef(false);
  const { t } = useLingui();
  const install = async (keystore: ChosenKeystore, action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setState({ kind: 'installing', keystore });
    try {
      await action();
      setState({ kind: 'installed', keystore });
      notify('success', t`Certificate installed`);
    } catch (error) {
      setState({ kind: 'failed', error });
      onFailure?.(error);
    } finally {
      running.current = false;
    }
  };
  return { state, install };
}

/** The keystore variant: the trust agent imports the certificate next to its key. */
function AgentInstall({ issued, enrollmentId, code, agentClient }: VariantProps) {
  const [location, setLocation] = useState<KeystoreLocation>(SOFTWARE_KEYSTORE_LOCATION);
  const { state, install } = useInstall();
  const agent = useTrustAgent({
    location: location === SOFTWARE_KEYSTORE_LOCATION ? 'software' : 'hardware',
    watchTokens: state.kind !== 'installed',
    ...(agentClient ? { client: agentClient } : {}),
  });
  const serial = issued.serial_number;

  if (state.kind === 'installed') {
    return <InstalledCertificate keystore={state.keystore} serialNumber={serial} />;
  }
  return (
    <>
      <p>
        <Trans>
          The certificate with the serial number {serial} was issued, but it is not in its keystore yet.
          Choose the keystore that holds its key and unlock it to install the certificate.
        </Trans>
      </p>
      {state.kind === 'failed' ? <InstallFailure error={state.error} /> : null}
      {state.kind === 'installing' ? <Installing /> : null}
      <KeystoreStep
        agent={agent}
        question={<Trans>Where is the key of the certificate?</Trans>}
        location={location}
        onLocationChange={setLocation}
        onUnlocked={(keystore) =>
          void install(keystore, () =>
            installCertificate(keystore, issued, {
              send: agent.command,
              redeem: () => redeemEnrollment(enrollmentId, code),
            }),
          )
        }
      />
    </>
  );
}

/**
 * The device-certificate-client variant (Q-79): the desktop client's keystores, the PIN, and the
 * PKCS#7 chain installed under the enrollment's profile and security policy. A failure is the
 * banner and an error toast with the same words (Q-86, Q-88).
 */
function DesktopClientInstall({ issued, enrollmentId, code, desktopClient: given }: VariantProps) {
  const failureText = useInstallFailureText('desktopClient');
  const { state, install } = useInstall((error) => notify('error', failureText(error)));
  const client = useDesktopClient(given ? { client: given } : {});
  const serial = issued.serial_number;

  if (state.kind === 'installed') {
    return <InstalledCertificate keystore={state.keystore} serialNumber={serial} />;
  }
  return (
    <>
      <p>
        <Trans>
          The certificate with the serial number {serial} was issued for this device, but it is not in its
          keystore yet. Choose the keystore of the desktop client that holds its key and enter its PIN to
          install the certificate.
        </Trans>
      </p>
      {state.kind === 'failed' ? <InstallFailure error={state.error} variant="desktopClient" /> : null}
      {state.kind === 'installing' ? <Installing /> : null}
      <TrustAgentGate gate={client.gate} onRetry={client.retry} onPairAgain={client.pairAgain}>
        <DesktopClientKeystores
          keystores={client.keystores}
          securityPolicy={securityPolicyOf(issued.keystore_type)}
          busy={state.kind === 'installing'}
          onInstall={(keystore) =>
            void install(keystore, () =>
              installWithDesktopClient(keystore, issued, {
                send: client.command,
                redeem: () => redeemEnrollment(enrollmentId, code),
              }),
            )
          }
        />
      </TrustAgentGate>
    </>
  );
}

function Installing() {
  return (
    <p role="status" className="enrollment__stage">
      <Trans>Storing the certificate next to its key…</Trans>
    </p>
  );
}

/**
 * Why an install failed, in the page's words: publicEnrollment.certificateInstallationFailed for
 * the trust agent's variant, ddc.error.certificateInstallationFailed for the desktop client's
 * (account administration §8), each with the reason.
 */
function useInstallFailureText(variant: 'agent' | 'desktopClient') {
  const { i18n, t } = useLingui();
  const agentText = useAgentFailureText();
  return (error: unknown): string => {
    let text: string;
    if (error instanceof NoKeyForCertificateError) {
      const { serialNumber, keystoreLabel } = error;
      // noCertificateWithSerialNumberError (account administration §8).
      text = t`The keystore ${keystoreLabel} holds no key for the certificate with the serial number ${serialNumber}. Choose the keystore in which the key was made.`;
    } else if (error instanceof AgentCommandError) {
      text = agentText(error.failure);
    } else {
      text = errorPageText(error, i18n);
    }
    return variant === 'desktopClient'
      ? t`The desktop client could not install the certificate: ${text}`
      : t`The certificate could not be installed: ${text}`;
  };
}

/** The failed state: the error banner with what went wrong. */
function InstallFailure({
  error,
  variant = 'agent',
}: {
  error: unknown;
  variant?: 'agent' | 'desktopClient';
}) {
  const text = useInstallFailureText(variant);
  return (
    <Alert tone="error">
      <p>{text(error)}</p>
    </Alert>
  );
}

function InstalledCertificate({
  keystore,
  serialNumber,
}: {
  keystore: ChosenKeystore;
  serialNumber: string;
}) {
  const label = keystore.label;
  const [signInFailure, setSignInFailure] = useState<unknown>(null);
  const [leaving, setLeaving] = useState(false);
  const { i18n } = useLingui();
  const signIn = async () => {
    setLeaving(true);
    setSignInFailure(null);
    try {
      window.location.assign(await fetchClientAuthLoginUrl());
    } catch (error) {
      setSignInFailure(error);
      setLeaving(false);
    }
  };
  return (
    <>
      {keystore.location === SOFTWARE_KEYSTORE_LOCATION ? (
        <>
          <Alert tone="success">
            <p>
              <Trans>
                The certificate with the serial number {serialNumber} is installed in {label}, next to its
                key, on this computer.
              </Trans>
            </p>
          </Alert>
          <Alert tone="info">
            <p>
              <Trans>
                Browsers do not read the trust agent's software keystore, so this certificate does not sign
                you in to the console or to websites by itself. Programs that work with the trust agent use it
                on this computer. To use it in your browser or in other programs, see the{' '}
                <Link to="/client-tools">user guide of the client tools</Link>.
              </Trans>
            </p>
          </Alert>
        </>
      ) : (
        <Alert tone="success">
          <p>
            <Trans>
              The certificate with the serial number {serialNumber} is installed on the token {label}, next to
              its key. Wherever the token is plugged in and its driver is installed, your browser and other
              programs can use it: you can sign in with it now.
            </Trans>
          </p>
        </Alert>
      )}
      {signInFailure ? (
        <Alert tone="error">
          <p>{errorPageText(signInFailure, i18n)}</p>
        </Alert>
      ) : null}
      <Button onClick={() => void signIn()} busy={leaving} aria-disabled={leaving || undefined}>
        <Trans>Sign in</Trans>
      </Button>
    </>
  );
}
