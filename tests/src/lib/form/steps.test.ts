import { describe, expect, it } from 'vitest';
import { stepOfField } from '../../../../src/lib/form/steps.ts';

describe('the steps of a multi-step form (decision 039 §1)', () => {
  const steps = [['first_name', 'user_name'], ['primary_account_id'], ['role_ids', 'alias.']];

  it('finds the step of a field, prefixes included', () => {
    expect(stepOfField(steps, 'user_name')).toBe(1);
    expect(stepOfField(steps, 'primary_account_id')).toBe(2);
    expect(stepOfField(steps, 'alias.3.identifier')).toBe(3);
  });

  it('names no step for a field none has', () => {
    expect(stepOfField(steps, 'sign_in')).toBeNull();
    expect(stepOfField(steps, 'alias')).toBeNull();
  });
});
