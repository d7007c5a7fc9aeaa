import { randomBytes } from 'node:crypto';

/**
 * A random positive serial number of 16 octets, lower-case hexadecimal as the `certificates` table
 * keeps it: the top bit is clear (positive) and the next one set, so the DER INTEGER is exactly 16
 * octets with no leading zero and openssl prints the same digits. 126 random bits make a collision
 * (which the unique index would refuse) practically impossible and the serial unpredictable.
 */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x3f) | 0x40;
  return bytes.toString('hex');
}
