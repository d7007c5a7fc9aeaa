import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { detailsFormSchema, subjectLines } from '../../../../src/features/enrollment/schemas.ts';

const PERSON = {
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  common_name: 'Grace Hopper',
};

function issues(subject: Record<string, string>, rules: Record<string, 'required' | 'optional'>) {
  const result = v.safeParse(detailsFormSchema(rules, 'user'), { ...PERSON, subject });
  return result.success ? [] : result.issues.map((issue) => [v.getDotPath(issue), issue.message]);
}

describe('the enrollment form', () => {
  it('reads a multi-value field one value per line, blank lines ignored', () => {
    expect(subjectLines(' a.example.com \r\n\n b.example.com\n  \n')).toEqual([
      'a.example.com',
      'b.example.com',
    ]);
  });

  it('accepts up to 20 DNS names and refuses a 21st', () => {
    const names = (count: number) =>
      Array.from({ length: count }, (_, index) => `h${index}.example.com`).join('\n');
    expect(issues({ dns_names: names(20) }, { dns_names: 'optional' })).toEqual([]);
    expect(issues({ dns_names: names(21) }, { dns_names: 'optional' })).toEqual([
      ['subject.dns_names', 'tooManyValues'],
    ]);
  });

  it('checks every line like a single subject value', () => {
    expect(
      issues({ organization_units: `Ops\n${'x'.repeat(257)}` }, { organization_units: 'optional' }),
    ).toEqual([['subject.organization_units', 'tooLong']]);
    expect(issues({ organization_units: 'Ops\nR\u0007D' }, { organization_units: 'optional' })).toEqual([
      ['subject.organization_units', 'invalidValue'],
    ]);
  });

  it('requires a value where the profile requires the field, blank lines counting as none', () => {
    expect(issues({ user_principal_names: ' \n ' }, { user_principal_names: 'required' })).toEqual([
      ['subject.user_principal_names', 'required'],
    ]);
    expect(issues({ state: '  ' }, { state: 'required' })).toEqual([['subject.state', 'required']]);
    expect(issues({}, { state: 'optional', dns_names: 'optional' })).toEqual([]);
  });
});
