import type { EnrollmentCertificate } from '../../../contract/schemas/enrollments.ts';
import { ApiError } from '../../lib/api-client.ts';
import { AgentCommandError, type ChosenKeystore, commandAnswer, type SendCommand } from './issue.ts';

/**
 * Installing an issued certificate later (account administration §7, decision 021 §6): the key was
 * made in a keystore when the certificate was requested, but the import never happened there. The
 * agent imports the certificate next to its key, then the enrollment is redeemed.
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
  try {
    await deps.redeem();
  } catch (error) {
    // The certificate GET answered, so the enrollment was issued or redeemed: 409 is an enrollment
    // redeemed already, by an earlier install (the same token on another computer); nothing is lost.
    if (!(error instanceof ApiError && error.status === 409)) throw error;
  }
}
