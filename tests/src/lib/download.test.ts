import { describe, expect, it } from 'vitest';
import { fileNameFromContentDisposition } from '../../../src/lib/download.ts';

describe('file name from Content-Disposition', () => {
  it.each([
    ['attachment; filename="accounts-2026-11-21.csv"', 'accounts-2026-11-21.csv'],
    ['attachment; filename=accounts.csv', 'accounts.csv'],
    [
      'attachment; filename="fallback.csv"; filename*=UTF-8\'\'Konten%20M%C3%BCnchen.csv',
      'Konten München.csv',
    ],
    ['attachment; filename="say \\"hi\\".csv"', 'say _hi_.csv'],
  ])('reads %s', (header, name) => {
    expect(fileNameFromContentDisposition(header)).toBe(name);
  });

  it.each([
    ['attachment; filename="../../etc/passwd"', '.._.._etc_passwd'],
    ['attachment; filename="C:\\\\Windows\\\\evil.csv"', 'C__Windows_evil.csv'],
    ['attachment; filename="line\u0000break.csv"', 'line_break.csv'],
  ])('keeps a hostile name %s inside one file name', (header, name) => {
    expect(fileNameFromContentDisposition(header)).toBe(name);
  });

  it.each([null, 'attachment', 'attachment; filename=""', 'attachment; filename=".."'])(
    'gives no name for %s',
    (header) => {
      expect(fileNameFromContentDisposition(header)).toBeNull();
    },
  );

  it('falls back to the plain name when the encoded one is malformed', () => {
    expect(
      fileNameFromContentDisposition('attachment; filename*=UTF-8\'\'%E0%A4%A; filename="plain.csv"'),
    ).toBe('plain.csv');
  });
});
