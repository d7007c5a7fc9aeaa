import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  aliasesSchema,
  aliasIdentifierSchema,
  aliasValueSchema,
  MAX_ALIASES,
  normalizePhone,
  userPhoneSchema,
  userUpdateSchema,
} from '../../contract/schemas/users.ts';
import { fieldIssues, type ValidationCode } from '../../contract/validation.ts';

/** The first issue's code, or null when the value is accepted. */
function firstCode(schema: v.GenericSchema, value: unknown): ValidationCode | null {
  const result = v.safeParse(schema, value);
  if (result.success) return null;
  return Object.values(fieldIssues(result.issues))[0] ?? null;
}

describe('alias identifier (E-22: 1–30 of letters, digits, _ . -)', () => {
  it.each([
    ['letters and digits', 'employee42'],
    ['underscore, dot and hyphen', 'mail.alias_2-b'],
    ['thirty characters', 'x'.repeat(30)],
  ])('accepts %s', (_label, value) => {
    expect(firstCode(aliasIdentifierSchema, value)).toBeNull();
  });

  it.each([
    ['empty', '', 'required'],
    ['only spaces', '   ', 'required'],
    ['thirty-one characters', 'x'.repeat(31), 'tooLong'],
    ['a space inside', 'employee no', 'invalidIdentifier'],
    ['an at sign', 'ada@home', 'invalidIdentifier'],
    ['a letter outside ASCII', 'zähler', 'invalidIdentifier'],
  ])('refuses %s', (_label, value, code) => {
    expect(firstCode(aliasIdentifierSchema, value)).toBe(code);
  });
});

describe('alias value (E-23: 1–50 of the general name pattern plus @ and :)', () => {
  it.each([
    ['an e-mail address', 'ada@example.com'],
    ['a colon and letters outside ASCII', 'Zähler: 4711'],
    ['fifty characters', 'v'.repeat(50)],
  ])('accepts %s', (_label, value) => {
    expect(firstCode(aliasValueSchema, value)).toBeNull();
  });

  it.each([
    ['empty', '', 'required'],
    ['fifty-one characters', 'v'.repeat(51), 'tooLong'],
    ['angle brackets', '<ada>', 'invalidValue'],
    ['a quotation mark', 'say "hi"', 'invalidValue'],
  ])('refuses %s', (_label, value, code) => {
    expect(firstCode(aliasValueSchema, value)).toBe(code);
  });
});

describe('aliases', () => {
  const many = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`id${i}`, 'v']));

  it(`holds at most ${MAX_ALIASES}`, () => {
    expect(firstCode(aliasesSchema, many(MAX_ALIASES))).toBeNull();
    expect(firstCode(aliasesSchema, many(MAX_ALIASES + 1))).toBe('tooManyAliases');
  });

  it('names the alias at fault by its identifier', () => {
    const result = v.safeParse(aliasesSchema, { good: 'fine', bad: '<no>' });
    expect(result.success).toBe(false);
    if (!result.success) expect(fieldIssues(result.issues)).toEqual({ bad: 'invalidValue' });
  });

  it('holds text values only', () => {
    expect(firstCode(aliasesSchema, 'a')).toBe('invalidType');
    expect(firstCode(aliasesSchema, { a: 1 })).toBe('invalidType');
  });

  it('is a map, not a list: an array is refused rather than read as indexes', () => {
    expect(firstCode(aliasesSchema, ['a'])).toBe('invalidType');
  });
});

describe('phone normalisation (E-19)', () => {
  it.each([
    ['+49 30 1234567', '+49301234567'],
    ['0049 (30) 123-45.67', '+49301234567'],
    ['030 1234567', '0301234567'],
    ['(555) 123-4567', '5551234567'],
    ['+1.555.123.4567', '+15551234567'],
    ['0301234567', '0301234567'],
  ])('%s is stored as %s', (typed, stored) => {
    expect(normalizePhone(typed)).toBe(stored);
    expect(v.parse(userPhoneSchema, typed)).toBe(stored);
  });

  it('guesses no country: a national number keeps its leading zero', () => {
    expect(normalizePhone('0 30 12 34 56')).toBe('030123456');
  });

  it('is the same number however it was typed', () => {
    expect(normalizePhone('0044 20 7946 0958')).toBe(normalizePhone('+44 (20) 7946-0958'));
  });

  it('leaves no phone empty and refuses what is not a number', () => {
    expect(v.parse(userPhoneSchema, '')).toBe('');
    expect(v.parse(userPhoneSchema, undefined)).toBe('');
    expect(firstCode(userPhoneSchema, 'call me')).toBe('invalidPhone');
    expect(firstCode(userPhoneSchema, '123')).toBe('invalidPhone');
  });
});

describe('user update', () => {
  const fields = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    user_name: 'ada',
    email: 'ada@example.com',
    phone: '0049 30 1234567',
    locale: 'en_US',
  };

  it('drops members outside the schema, so scope, enabled state and roles cannot ride along', () => {
    const parsed = v.parse(userUpdateSchema, {
      ...fields,
      access_scope: 'system',
      enabled: false,
      role_ids: ['x'],
    });
    expect(parsed).toEqual({ ...fields, phone: '+49301234567' });
  });

  it('leaves aliases absent unless sent', () => {
    expect(v.parse(userUpdateSchema, fields).aliases).toBeUndefined();
    expect(v.parse(userUpdateSchema, { ...fields, aliases: { a: 'b' } }).aliases).toEqual({ a: 'b' });
  });
});
