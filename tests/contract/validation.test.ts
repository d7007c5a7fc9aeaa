import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { setupUserRequestSchema } from '../../contract/schemas/setup.ts';
import {
  emailSchema,
  fieldIssues,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordSchema,
  userNameSchema,
  type ValidationCode,
} from '../../contract/validation.ts';

/** The first issue's code, or null when the value is accepted: what a form shows under the field. */
function firstCode(schema: v.GenericSchema, value: unknown): ValidationCode | null {
  const result = v.safeParse(schema, value);
  return result.success ? null : (fieldIssues(result.issues)[''] ?? null);
}

/** A password of exactly `length` characters holding all four classes. */
function passwordOfLength(length: number): string {
  const classes = 'Aa1!';
  return classes + 'x'.repeat(length - classes.length);
}

describe('username (overview §5)', () => {
  it.each([
    ['letters and digits', 'ada1815'],
    ['underscore, hyphen and plus', 'ada_love-lace+admin'],
    ['every listed special character', "a!#$%&'*/`=?@.,z"],
    ['an e-mail address as user name', 'ada@example.com'],
  ])('accepts %s', (_label, value) => {
    expect(firstCode(userNameSchema, value)).toBeNull();
  });

  it.each([
    ['a space inside', 'ada lovelace'],
    ['a colon', 'ada:lovelace'],
    ['a semicolon', 'ada;'],
    ['angle brackets', '<ada>'],
    ['a non-ASCII letter', 'adä'],
    ['parentheses', 'ada(1)'],
  ])('rejects %s as invalidUserName', (_label, value) => {
    expect(firstCode(userNameSchema, value)).toBe('invalidUserName');
  });

  it('asks for a user name when it is empty or blank', () => {
    expect(firstCode(userNameSchema, '')).toBe('requiredUserName');
    expect(firstCode(userNameSchema, '   ')).toBe('requiredUserName');
  });
});

describe('e-mail (overview §5)', () => {
  it.each([
    ['a plain address', 'ada@example.com'],
    ['special characters in the local part', "a.d!a#$%&'*+/=?^_`{|}~-@example.com"],
    ['a subdomain', 'ada@mail.example.co.uk'],
    ['a 2-letter top-level domain', 'ada@example.de'],
    ['a 63-letter top-level domain', `ada@example.${'a'.repeat(63)}`],
  ])('accepts %s', (_label, value) => {
    expect(firstCode(emailSchema, value)).toBeNull();
  });

  it.each([
    ['a 1-letter top-level domain', 'ada@example.c'],
    ['a 64-letter top-level domain', `ada@example.${'a'.repeat(64)}`],
    ['a numeric top-level domain', 'ada@example.123'],
    ['no @', 'ada.example.com'],
    ['no domain dot', 'ada@localhost'],
    ['two @', 'ada@@example.com'],
    ['a space', 'ada lovelace@example.com'],
    ['an empty local part', '@example.com'],
  ])('rejects %s as invalidEmail', (_label, value) => {
    expect(firstCode(emailSchema, value)).toBe('invalidEmail');
  });

  it('requires an e-mail address', () => {
    expect(firstCode(emailSchema, '')).toBe('required');
  });
});

describe('password (overview §5)', () => {
  it.each([
    [PASSWORD_MIN_LENGTH - 1, 'passwordInvalidLength'],
    [PASSWORD_MIN_LENGTH, null],
    [PASSWORD_MAX_LENGTH, null],
    [PASSWORD_MAX_LENGTH + 1, 'passwordInvalidMaxLength'],
  ] as const)('with %i characters gives %s', (length, code) => {
    const password = passwordOfLength(length);
    expect(password).toHaveLength(length);
    expect(firstCode(passwordSchema, password)).toBe(code);
  });

  it.each([
    ['an upper-case letter', 'correct-horse-1'],
    ['a lower-case letter', 'CORRECT-HORSE-1'],
    ['a digit', 'Correct-Horse-X'],
    ['a symbol', 'CorrectHorse12'],
  ])('without %s gives enterValidPassword', (_label, value) => {
    expect(firstCode(passwordSchema, value)).toBe('enterValidPassword');
  });

  it('requires a password', () => {
    expect(firstCode(passwordSchema, '')).toBe('required');
  });
});

describe('first administrator form (overview §5)', () => {
  const valid = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    user_name: 'ada',
    password: 'Analytical-Engine-1843',
    repeatedPassword: 'Analytical-Engine-1843',
  };

  it('accepts a complete form', () => {
    expect(v.safeParse(setupUserRequestSchema, valid).success).toBe(true);
  });

  it('reports a confirmation that differs from the password on the repeated field', () => {
    const result = v.safeParse(setupUserRequestSchema, {
      ...valid,
      repeatedPassword: 'Analytical-Engine-1842',
    });
    expect(result.success).toBe(false);
    expect(fieldIssues(result.issues ?? [])).toEqual({ repeatedPassword: 'passwordConfirmationMismatch' });
  });

  it('reports a short confirmation before comparing it', () => {
    const result = v.safeParse(setupUserRequestSchema, { ...valid, repeatedPassword: 'short' });
    expect(fieldIssues(result.issues ?? [])).toEqual({ repeatedPassword: 'passwordInvalidLength' });
  });

  it('requires first and last name', () => {
    const result = v.safeParse(setupUserRequestSchema, { ...valid, first_name: '', last_name: ' ' });
    expect(fieldIssues(result.issues ?? [])).toEqual({ first_name: 'required', last_name: 'required' });
  });
});
