import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import {
  type KeystoreLocation,
  SOFTWARE_KEYSTORE_LOCATION,
} from '../../../../contract/schemas/certificate-profiles.ts';
import type { EnrollmentCertificate } from '../../../../contract/schemas/enrollments.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { errorPageText } from '../../../lib/error-messages.ts';
import type { TrustAgentClient } from '../../../trust-agent/client.ts';
import { useTrustAgent } from '../../../trust-agent/use-trust-agent.ts';
import { installCertificate, NoKeyForCertificateError } from '../install.ts';
import { AgentCommandError, type ChosenKeystore } from '../issue.ts';
import { fetchClientAuthLoginUrl, redeemEnrollment } from '../mutations.ts';
import { useAgentFailureText } from './agent-failure-alert.tsx';
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
  /** The channel to the agent worker; tests pass their own. */
  agentClient?: TrustAgentClient;
}

/**
 * Installs the certificate of an issued enrollment into the keystore that holds its key (account
 * administration §7): the keystore chosen and unlocked as on the enrollment page, the agent's
 * import, the redeem; then the way to sign in with it.
 */
export function CertificateInstall({ loaded, enrollmentId, code, agentClient }: CertificateInstallProps) {
  const [location, setLocation] = useState<KeystoreLocation>(SOFTWARE_KEYSTORE_LOCATION);
  const [state, setState] = useState<InstallState>({ kind: 'idle' });
  // State updates wait for a render; the ref stops a second install in the same moment.
  const running = useRef(false);
  const { t } = useLingui();
  const agent = useTrustAgent({
    location: location === SOFTWARE_KEYSTORE_LOCATION ? 'software' : 'hardware',
    watchTokens: state.kind !== 'installed',
    ...(agentClient ? { client: agentClient } : {}),
  });

  const install = async (keystore: ChosenKeystore, issued: EnrollmentCertificate) => {
    if (running.current) return;
    running.current = true;
    setState({ kind: 'installing', keystore });
    try {
      await installCertificate(keystore, issued, {
        send: agent.command,
        redeem: () => redeemEnrollment(enrollmentId, code),
      });
      setState({ kind: 'installed', keystore });
      showToast('success', t`Certificate installed`);
    } catch (error) {
      setState({ kind: 'failed', error });
    } finally {
      running.current = false;
    }
  };

  if ('error' in loaded) return <InstallFailure error={loaded.error} />;
  const issued = loaded.certificate;
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
      {state.kind === 'installing' ? (
        <p role="status" className="enrollment__stage">
          <Trans>Storing the certificate next to its key…</Trans>
        </p>
      ) : null}
      <KeystoreStep
        agent={agent}
        question={<Trans>Where is the key of the certificate?</Trans>}
        location={location}
        onLocationChange={setLocation}
        onUnlocked={(keystore) => void install(keystore, issued)}
      />
    </>
  );
}

/** The failed state: the error banner with what went wrong (publicEnrollment.certificateInstallationFailed). */
function InstallFailure({ error }: { error: unknown }) {
  const { i18n, t } = useLingui();
  const agentText = useAgentFailureText();
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
  return (
    <Alert tone="error">
      <p>
        <Trans>The certificate could not be installed: {text}</Trans>
      </p>
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
      <Alert tone="success">
        <p>
          <Trans>
            The certificate with the serial number {serialNumber} is installed in {label}. You can sign in
            with it now.
          </Trans>
        </p>
      </Alert>
      {keystore.location === SOFTWARE_KEYSTORE_LOCATION ? (
        <Alert tone="info">
          <p>
            <Trans>
              The certificate is in the trust agent's software keystore on this computer only. To use it in
              your browser or in other programs, see the{' '}
              <Link to="/client-tools">user guide of the client tools</Link>.
            </Trans>
          </p>
        </Alert>
      ) : null}
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
