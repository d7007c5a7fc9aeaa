import { describe, expect, it } from 'vitest';
import { operatingSystemsFirst } from '../../../../src/features/client-tools/visitor-os.ts';

describe("the visitor's operating system", () => {
  it("puts the visitor's system first and keeps the others in order", () => {
    expect(operatingSystemsFirst('linux')).toEqual(['linux', 'windows', 'mac']);
    expect(operatingSystemsFirst('mac')).toEqual(['mac', 'windows', 'linux']);
    expect(operatingSystemsFirst(null)).toEqual(['windows', 'mac', 'linux']);
  });
});
