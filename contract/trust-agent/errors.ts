/**
 * Error codes of the trust agent and of the console's gate in front of it (overview §8;
 * docs/agent-protocol.md §6).
 */

/** The gate's numeric codes (overview §8). */
export const GATE_ERROR_CODES = {
  notInstalled: 1,
  notRunning: 2,
  handshakeFailed: 3,
  initializeFailed: 4,
} as const;
export type GateErrorCode = (typeof GATE_ERROR_CODES)[keyof typeof GATE_ERROR_CODES];

/**
 * Refusals of the agent's HTTP layer, before any session: answered in clear as
 * `{ error: { status, message, code } }`, the platform's error shape.
 */
export const TRANSPORT_ERROR_CODES = [
  'hostNotAllowed',
  'originNotAllowed',
  'malformedRequest',
  'unsupportedProtocol',
  'unpaired',
  'pairingNotFound',
  'pairingRefused',
  'handshakeFailed',
  'sessionNotFound',
  'sequenceNotIncreasing',
  'messageRejected',
  'tooManyRequests',
  'agentDisabled',
] as const;
export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

/** Refusals of a command, inside the encrypted answer. */
export const COMMAND_ERROR_CODES = [
  'unsupportedCommand',
  'invalidRequest',
  'keystoreNotFound',
  'keystoreNotAvailable',
  'keystoreUninitialized',
  /** A PKCS#11 token that is not initialized: only its maker's tool can, since that erases it. */
  'tokenUninitialized',
  'noKeystore',
  'pinIncorrect',
  'pinLocked',
  'pinNotInitialized',
  'pinInvalid',
  'keySizeBelowMinimum',
  'keySizeAboveMaximum',
  'invalidKeyType',
  'keyNotFound',
  'certificateNotFound',
  'certificateKeyMismatch',
  'certificateInvalid',
  'tokenError',
  /** The desktop client's pkcs7: a `hardware` profile offered a keystore that is not a token. */
  'securityPolicyNotMet',
  /** The desktop client's pkcs7: the keystore holds no key for the chain's certificate (serial, keystore). */
  'noCertificateWithSerialNumber',
] as const;
export type CommandErrorCode = (typeof COMMAND_ERROR_CODES)[number];
