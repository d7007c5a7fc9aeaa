import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';

/** The mail settings of decision 037 §1, read at start with errors that say what is wrong. */

describe('mail settings', () => {
  it('default to files in the data directory, links on http://HOST:PORT and no-reply at that host', () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '9000' });
    expect(config).toMatchObject({
      smtpUrl: null,
      publicUrl: 'http://127.0.0.1:9000',
      publicUrlConfigured: false,
      mailFrom: 'no-reply@127.0.0.1',
    });
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).publicUrl).toBe('http://[::1]:9000');
  });

  it('take SMTP_URL, PUBLIC_URL and MAIL_FROM as given', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://mailer:s3cret@mail.example.com:465?requireTLS=true',
      PUBLIC_URL: 'https://Console.Example.com/',
      MAIL_FROM: 'trust@example.com',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://mailer:s3cret@mail.example.com:465?requireTLS=true',
      publicUrl: 'https://console.example.com',
      publicUrlConfigured: true,
      mailFrom: 'trust@example.com',
    });
    expect(loadConfig({ PUBLIC_URL: 'https://console.example.com:8443' }).mailFrom).toBe(
      'no-reply@console.example.com',
    );
  });

  it.each([
    ['http://mail.example.com', 'SMTP_URL must be an smtp:// or smtps:// URL with a host'],
    ['mail.example.com:587', 'SMTP_URL must be an smtp:// or smtps:// URL with a host'],
    ['smtp://', 'SMTP_URL must be an smtp:// or smtps:// URL with a host'],
  ])('refuse SMTP_URL %s', (value, message) => {
    expect(() => loadConfig({ SMTP_URL: value })).toThrow(message);
  });

  it('never repeat SMTP_URL in the error, since it may hold the password', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtpx://mailer:Hunter2-Secret@mail.example.com' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('Hunter2-Secret') }),
    );
  });

  it.each([
    ['console.example.com', 'PUBLIC_URL must be an absolute http:// or https:// URL'],
    ['ftp://console.example.com', 'PUBLIC_URL must be an absolute http:// or https:// URL'],
    ['https://console.example.com/account', 'PUBLIC_URL must have no path, query or fragment'],
    ['https://console.example.com/?a=1', 'PUBLIC_URL must have no path, query or fragment'],
    ['https://console.example.com/#top', 'PUBLIC_URL must have no path, query or fragment'],
    ['https://user:pw@console.example.com', 'PUBLIC_URL must not hold a user name or password'],
  ])('refuse PUBLIC_URL %s', (value, message) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(message);
  });

  it.each(['no-reply', 'no reply@example.com', 'a@b'])('refuse MAIL_FROM %s', (value) => {
    expect(() => loadConfig({ MAIL_FROM: value })).toThrow(
      `MAIL_FROM must be an e-mail address, got "${value}".`,
    );
  });
});
