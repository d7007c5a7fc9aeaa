import { I18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bcp47For, CONSOLE_LOCALES } from '../../../contract/locales.ts';
import { loadServerCatalogs, type ServerCatalogs } from '../../../server/i18n/catalog.ts';
import { MAIL_KINDS, MAIL_LINKS } from '../../../server/mail/kinds.ts';
import { renderMail } from '../../../server/mail/messages.ts';

/** Every message kind renders in every shipped language, with every value in place. */

let catalogs: ServerCatalogs;
beforeAll(async () => {
  catalogs = await loadServerCatalogs();
});

const facts = { name: 'Zoë Ng', userName: 'zoe.ng', account: 'Northwind', actor: 'Grace Hopper' };
const action = { url: 'https://console.example.test/account/verify/u1/CODE', lifetimeMinutes: 60 };

describe('the server catalog', () => {
  it('has an instance of its own for every console locale', () => {
    expect([...catalogs.keys()].sort()).toEqual([...CONSOLE_LOCALES].sort());
    for (const i18n of catalogs.values()) expect(i18n).toBeInstanceOf(I18n);
  });

  describe.each(CONSOLE_LOCALES)('in %s', (locale) => {
    it.each(MAIL_KINDS)('renders %s with no raw id and every value', (kind) => {
      const i18n = catalogs.get(locale);
      if (i18n === undefined) throw new Error(`No catalog for ${locale}.`);
      const withLink = MAIL_LINKS[kind] === null ? null : action;
      const mail = renderMail(i18n, bcp47For(locale), kind, facts, withLink);
      for (const part of [mail.subject, mail.text, mail.html]) {
        expect(part).not.toMatch(/mail\.[a-z_]+\.[a-z_]+|\{[a-zA-Z]+\}/);
      }
      expect(mail.text).toContain(facts.name);
      if (kind !== 'email_changed' && kind !== 'password_changed' && kind !== 'verify_email') {
        expect(mail.text).toContain(facts.actor);
      }
      expect(mail.text).toContain(facts.userName);
      expect(mail.text).toContain(facts.account);
      if (withLink !== null) {
        expect(mail.text).toContain(action.url);
        expect(mail.html).toContain(`href="${action.url}"`);
      }
      if (locale !== 'en') {
        const english = catalogs.get('en');
        if (english === undefined) throw new Error('No English catalog.');
        expect(mail.subject).not.toBe(renderMail(english, 'en', kind, facts, withLink).subject);
      }
    });
  });

  it('names an administrator when the one who asked is unknown', () => {
    const english = catalogs.get('en');
    if (english === undefined) throw new Error('No English catalog.');
    const mail = renderMail(english, 'en', 'reset_password', { ...facts, actor: null }, action);
    expect(mail.text).toContain(
      'An administrator asked for a new password for your user account zoe.ng in Northwind.',
    );
    expect(mail.text).toContain('This link works once and expires in 60 minutes.');
  });
});
