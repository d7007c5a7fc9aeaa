import { type EnrollmentCertificate, securityPolicyOf } from '../../../contract/schemas/enrollments.ts';
import type { DesktopClientCommands } from '../../../contract/trust-agent/desktop-client.ts';
import { ApiError } from '../../lib/api-client.ts';
import type { TrustAgentClient } from '../../trust-agent/client.ts';
import { AgentCommandError, type ChosenKeystore, commandAnswer, type SendCommand } from './issue.ts';

/**
 * Installing an issued certificate later (account administration §7, decision 021 §5 and §6): the
 * key was made in a keystore when the certificate was requested, but the import never happened
 * there. Two variants: the trust agent imports the certificate next to its key, or, for a
 * certificate a device's desktop client requested (enrollment method DDC), the desktop client
 * installs the PKCS#7 chain. Then the enrollment is redeemed.
 */

/** noCertificateWithSerialNumberError (account administration §8): the keystore holds no key for it. */
export class NoKeyForCertificateError extends Error {
  constructor(
    readonly serialNumber: string,
    readonly keystoreLabel: string,
  ) {
    super(`The keystore holds no key for the certificate ${serialNumber}`);
    this.name = 'NoKeyForCertificateError';
  }
}

export interface InstallDependencies {
  send: SendCommand;
  redeem: () => Promise<unknown>;
}

export async function installCertificate(
  keystore: ChosenKeystore,
  certificate: EnrollmentCertificate,
  deps: InstallDependencies,
): Promise<void> {
  try {
    commandAnswer(
      await deps.send('importCert', {
        keystoreId: keystore.keystoreId,
        pin: keystore.pin,
        certificate: certificate.x509_cert,
      }),
    );
  } catch (error) {
    const code = error instanceof AgentCommandError && 'code' in error.failure ? error.failure.code : null;
    if (code === 'certificateKeyMismatch' || code === 'keyNotFound') {
      throw new NoKeyForCertificateError(certificate.serial_number, keystore.label);
    }
    throw error;
  }
  await redeemInstalled(deps.redeem);
}

export interface DesktopClientInstallDependencies {
  send: TrustAgentClient<DesktopClientCommands>['command'];
  redeem: () => Promise<unknown>;
}

/**
 * The device-certificate-client variant: the desktop client installs the certificate's
 * PKCS#7 chain into the chosen keystore, under the enrollment's profile name and the security
 * policy its keystore type asks for; it finds the certificate whose key the keystore holds.
 */
export async function installWithDesktopClient(
  keystore: ChosenKeystore,
  certificate: EnrollmentCertificate,
  deps: DesktopClientInstallDependencies,
): Promise<void> {
  try {
    commandAnswer(
      await deps.send('pkcs7', {
        keystoreId: keystore.keystoreId,
        pin: keystore.pin,
        pkcs7: certificate.pkcs7,
        securityPolicy: securityPolicyOf(certificate.keystore_type),
        profileName: certificate.profile_name,
      }),
    );
  } catch (error) {
    const failure = error instanceof AgentCommandError && 'code' in error.failure ? error.failure : null;
    if (failure?.code === 'noCertificateWithSerialNumber') {
      // The client names the keystore it looked in; the serial is written as the platform writes it.
      throw new NoKeyForCertificateError(certificate.serial_number, failure.keystoreName ?? keystore.label);
    }
    throw error;
  }
  await redeemInstalled(deps.redeem);
}

async function redeemInstalled(redeem: () => Promise<unknown>): Promise<void> {
  try {
    await redeem();
  } catch (error) {
    // The certificate GET answered, so the enrollment was issued or redeemed: 409 is an enrollment
    // redeemed already, by an earlier install (the same token on another computer); nothing is lost.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
}
