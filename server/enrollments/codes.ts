import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ENROLLMENT_CODE_TTL_DAYS } from '../../contract/schemas/enrollments.ts';

/**
 * Enrollment codes (decision 021 §2): 128 random bits written in base32 (RFC 4648, upper case, no
 * padding: 26 characters a person can read out), stored only as their SHA-256 and compared in
 * constant time.
 */

const CODE_BYTES = 16;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += BASE32[(value << (5 - bits)) & 31];
  return text;
}

export interface EnrollmentCode {
  code: string;
  hash: string;
  expiresAt: Date;
}

export function newEnrollmentCode(now: Date): EnrollmentCode {
  const code = base32(randomBytes(CODE_BYTES));
  return {
    code,
    hash: hashCode(code),
    expiresAt: new Date(now.getTime() + ENROLLMENT_CODE_TTL_DAYS * 86_400_000),
  };
}

function hashCode(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** A digest compared when the enrollment does not exist, so both answers take the same work. */
const NO_HASH = hashCode('');

/** Whether `code` is the one whose hash is `storedHash` (none: no enrollment), in constant time. */
export function codeMatches(code: string, storedHash: string | undefined): boolean {
  const given = Buffer.from(hashCode(code), 'hex');
  const expected = Buffer.from(storedHash ?? NO_HASH, 'hex');
  return timingSafeEqual(given, expected) && storedHash !== undefined;
}
