import * as v from 'valibot';
import {
  base64Schema,
  commandSchemas,
  keystoreIdSchema,
  type TableRequest,
  type TableResponse,
} from './commands.ts';
import { DESKTOP_CLIENT_ENVIRONMENT } from './constants.ts';
import { agentInfoSchema, keystoreSchema } from './entities.ts';

/**
 * The desktop client's commands (decision 021 §5, overview §7): key store, profile, certificate, CSR
 * and PKCS#7 operations. The desktop client is the second service of the agent program: the same
 * transport, pairing, handshake and sessions as the trust agent (docs/agent-protocol.md §9), with
 * this table in place of `commandSchemas`. Keystores and certificates are the trust agent's entities.
 */

/**
 * Where a profile's key must live: `hardware` on a PKCS#11 token; `software` anywhere. The desktop
 * client refuses to install a `hardware` profile into the software keystore.
 */
export const SECURITY_POLICIES = ['hardware', 'software'] as const;
export type SecurityPolicy = (typeof SECURITY_POLICIES)[number];

const profileNameSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));

/** A profile the desktop client installed a certificate under, and where. */
export const desktopClientProfileSchema = v.object({
  name: v.string(),
  securityPolicy: v.picklist(SECURITY_POLICIES),
  keystoreId: v.string(),
  /** The installed certificate's serial (hexadecimal, lower case). */
  serial: v.string(),
  installedAt: v.string(),
});
export type DesktopClientProfile = v.InferOutput<typeof desktopClientProfileSchema>;

export const desktopClientCommandSchemas = {
  initialize: {
    request: v.strictObject({ environment: v.literal(DESKTOP_CLIENT_ENVIRONMENT) }),
    response: v.object({ agent: agentInfoSchema, keystores: v.array(keystoreSchema) }),
  },
  keystore: commandSchemas.keystore,
  profile: {
    request: v.strictObject({}),
    response: v.object({ profiles: v.array(desktopClientProfileSchema) }),
  },
  certificate: commandSchemas.certificate,
  /** A key made in the keystore and its CSR, as the trust agent's `generate`. */
  csr: commandSchemas.generate,
  /**
   * Installs a certs-only PKCS#7 chain (base64 DER): the certificate whose key the keystore holds is
   * stored next to it, under the profile's name and security policy.
   */
  pkcs7: {
    request: v.strictObject({
      keystoreId: keystoreIdSchema,
      pin: commandSchemas.verifypin.request.entries.pin,
      pkcs7: base64Schema,
      securityPolicy: v.picklist(SECURITY_POLICIES),
      profileName: profileNameSchema,
    }),
    response: v.object({
      certificate: commandSchemas.importCert.response.entries.certificate,
      profile: desktopClientProfileSchema,
    }),
  },
} as const;

export type DesktopClientCommands = typeof desktopClientCommandSchemas;
export type DesktopClientCommand = keyof DesktopClientCommands;
export type DesktopClientRequest<C extends DesktopClientCommand> = TableRequest<DesktopClientCommands, C>;
export type DesktopClientResponse<C extends DesktopClientCommand> = TableResponse<DesktopClientCommands, C>;
