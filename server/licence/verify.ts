import type { KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader } from 'jose';
import * as v from 'valibot';
import { type LicencePayload, licencePayloadSchema } from '../../contract/schemas/licence.ts';
import type { ValidationCode } from '../../contract/validation.ts';
import { utcDate } from '../dates.ts';
import { unarmourLicence } from './format.ts';

/** Vendor public keys the platform accepts, by fingerprint. */
export type TrustedLicenceKeys = ReadonlyMap<string, KeyObject>;

export type LicenceFailure =
  | { reason: 'unreadable' }
  | { reason: 'untrusted_key'; fingerprint: string }
  | { reason: 'tampered' }
  | { reason: 'expired'; validTo: string }
  | { reason: 'not_yet_valid'; validFrom: string };

export type LicenceVerification =
  | { ok: true; payload: LicencePayload; fingerprint: string }
  | { ok: false; failure: LicenceFailure };

/** What the person installing the licence is told, one sentence per failure. */
export function describeLicenceFailure(failure: LicenceFailure): string {
  switch (failure.reason) {
    case 'unreadable':
      return 'The license text is not readable: paste the whole text, including the BEGIN and END lines.';
    case 'untrusted_key':
      return `The license is signed by a key this platform does not trust (fingerprint ${failure.fingerprint}).`;
    case 'tampered':
      return 'The license signature does not match its content: the text has been altered.';
    case 'expired':
      return `The license expired on ${failure.validTo}.`;
    case 'not_yet_valid':
      return `The license is not valid before ${failure.validFrom}.`;
  }
}

/** The contract's code of a failure, for the client to say in its own words (the message stays English). */
export function licenceFailureCode(failure: LicenceFailure): ValidationCode {
  switch (failure.reason) {
    case 'unreadable':
      return 'licenceUnreadable';
    case 'untrusted_key':
      return 'licenceUntrustedKey';
    case 'tampered':
      return 'licenceTampered';
    case 'expired':
      return 'licenceExpired';
    case 'not_yet_valid':
      return 'licenceNotYetValid';
  }
}

const fail = (failure: LicenceFailure): LicenceVerification => ({ ok: false, failure });

/** Checks armour, signer, signature, content and validity period of a licence text, in that order. */
export async function verifyLicence(
  text: string,
  trustedKeys: TrustedLicenceKeys,
  now: Date,
): Promise<LicenceVerification> {
  const compact = unarmourLicence(text);
  if (compact === null) return fail({ reason: 'unreadable' });

  let kid: unknown;
  let alg: unknown;
  try {
    ({ kid, alg } = decodeProtectedHeader(compact));
  } catch {
    return fail({ reason: 'unreadable' });
  }
  if (typeof kid !== 'string' || alg !== 'EdDSA') return fail({ reason: 'unreadable' });
  const key = trustedKeys.get(kid);
  if (key === undefined) return fail({ reason: 'untrusted_key', fingerprint: kid });

  let payloadBytes: Uint8Array;
  try {
    ({ payload: payloadBytes } = await compactVerify(compact, key, { algorithms: ['EdDSA'] }));
  } catch {
    return fail({ reason: 'tampered' });
  }

  let content: unknown;
  try {
    content = JSON.parse(new TextDecoder().decode(payloadBytes));
  } catch {
    return fail({ reason: 'unreadable' });
  }
  const parsed = v.safeParse(licencePayloadSchema, content);
  if (!parsed.success) return fail({ reason: 'unreadable' });

  const payload = parsed.output;
  const today = utcDate(now);
  if (today < payload.valid_from) return fail({ reason: 'not_yet_valid', validFrom: payload.valid_from });
  if (today > payload.valid_to) return fail({ reason: 'expired', validTo: payload.valid_to });
  return { ok: true, payload, fingerprint: kid };
}
