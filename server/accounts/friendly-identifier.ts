import { randomInt } from 'node:crypto';

/**
 * A friendly identifier for an account created without one: the name as a lower-case ASCII slug and
 * a random suffix, e.g. "Müller & Söhne GmbH" → `muller-sohne-gmbh-k3x9qa`. The suffix keeps two
 * accounts of the same name apart without a query per candidate; on the rare collision the caller
 * draws again. Both parts stay within the contract's identifier pattern and length.
 */

const SLUG_MAX_LENGTH = 40;
const SUFFIX_LENGTH = 6;
const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** For names with no Latin letter or digit at all (say, one written in Japanese). */
const FALLBACK_SLUG = 'account';

export function nameSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? FALLBACK_SLUG : slug;
}

function randomSuffix(): string {
  return Array.from({ length: SUFFIX_LENGTH }, () => SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)]).join(
    '',
  );
}

export function deriveFriendlyIdentifier(name: string): string {
  return `${nameSlug(name)}-${randomSuffix()}`;
}
