import {
  type DesktopClientCommands,
  desktopClientCommandSchemas,
} from '../../contract/trust-agent/desktop-client.ts';
import { type CommandContext, type Handlers, runTableCommand } from '../commands.ts';
import { CommandFailure } from '../failure.ts';
import { pem, serialHex } from '../keystores/x509.ts';
import { leafCertificates, parsePkcs7Certificates } from './pkcs7.ts';
import type { DesktopClientProfiles } from './profiles.ts';

export interface DesktopClientContext extends CommandContext {
  profiles: DesktopClientProfiles;
}

const handlers: Handlers<DesktopClientCommands, DesktopClientContext> = {
  initialize: async (context) => ({ agent: context.info, keystores: await context.keystores.list() }),
  keystore: async (context) => ({ keystores: await context.keystores.list() }),
  profile: async (context) => ({ profiles: await context.profiles.list() }),
  certificate: (context, request) => context.keystores.certificates(request),
  csr: (context, request) => context.keystores.generate(request),
  pkcs7: async (context, request) => {
    const keystore = (await context.keystores.list()).find((item) => item.id === request.keystoreId);
    if (keystore === undefined)
      throw new CommandFailure('keystoreNotFound', `No keystore "${request.keystoreId}" is known`);
    // A policy the client could not enforce would be a label: hardware means a PKCS#11 token.
    if (request.securityPolicy === 'hardware' && keystore.library === null) {
      throw new CommandFailure(
        'securityPolicyNotMet',
        'The profile needs its key on a hardware token, not in the software keystore',
      );
    }
    const leaves = leafCertificates(parsePkcs7Certificates(Buffer.from(request.pkcs7, 'base64')));
    const [first] = leaves;
    if (first === undefined)
      throw new CommandFailure('certificateInvalid', 'The PKCS#7 chain holds no certificate');
    // The chain's end-entity certificate whose key the keystore holds goes next to that key.
    for (const leaf of leaves) {
      try {
        const { certificate } = await context.keystores.importCertificate({
          keystoreId: keystore.id,
          pin: request.pin,
          certificate: pem('CERTIFICATE', leaf.rawData),
        });
        const profile = await context.profiles.record({
          name: request.profileName,
          securityPolicy: request.securityPolicy,
          keystoreId: keystore.id,
          serial: certificate.serial,
          installedAt: new Date().toISOString(),
        });
        return { certificate, profile };
      } catch (error) {
        if (!(error instanceof CommandFailure && error.code === 'certificateKeyMismatch')) throw error;
      }
    }
    const serial = serialHex(first);
    throw new CommandFailure(
      'noCertificateWithSerialNumber',
      `The keystore ${keystore.name} holds no key for the certificate ${serial}`,
      { serial, keystoreName: keystore.name },
    );
  },
};

/** Runs one decrypted command of the desktop client. */
export function runDesktopClientCommand(context: DesktopClientContext, command: string, request: unknown) {
  return runTableCommand(desktopClientCommandSchemas, handlers, context, command, request);
}
