import { createHash, type KeyObject } from 'node:crypto';

const BEGIN = '-----BEGIN TRUST PLATFORM LICENSE-----';
const END = '-----END TRUST PLATFORM LICENSE-----';
const LINE_LENGTH = 64;

/** SHA-256 of the DER SubjectPublicKeyInfo, lower-case hex: the `kid` of every licence it signs. */
export function keyFingerprint(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Wraps a compact JWS in the licence armour, 64 base64 characters a line. */
export function armourLicence(compactJws: string): string {
  const encoded = Buffer.from(compactJws, 'ascii').toString('base64');
  const lines = encoded.match(new RegExp(`.{1,${LINE_LENGTH}}`, 'g')) ?? [];
  return [BEGIN, ...lines, END].join('\n');
}

/**
 * The compact JWS inside the armour, or null when there is no well-formed armoured block. Text
 * around the block (a mail signature, a command's banner) is ignored, as PEM readers do.
 */
export function unarmourLicence(text: string): string | null {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END, start + BEGIN.length);
  if (start < 0 || end < 0) return null;
  const encoded = text.slice(start + BEGIN.length, end).replace(/\s+/g, '');
  if (encoded === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const compact = Buffer.from(encoded, 'base64').toString('latin1');
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(compact) ? compact : null;
}
