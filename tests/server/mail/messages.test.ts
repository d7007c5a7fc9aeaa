import { I18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bcp47For, CONSOLE_LOCALES } from '../../../contract/locales.ts';
import { ENROLLMENT_CODE_TTL_DAYS } from '../../../contract/schemas/enrollments.ts';
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
    expect(mail.text).toContain('This link works once and expires in 1 hour.');
  });
});

describe('the link lifetime', () => {
  /** What each language says of 7 days, 3 days, 1 hour, 12 hours and 30 minutes. */
  const SAID: Record<(typeof CONSOLE_LOCALES)[number], [string, string, string, string, string]> = {
    en: ['in 7 days.', 'in 3 days.', 'in 1 hour.', 'in 12 hours.', 'in 30 minutes.'],
    de: ['in 7 Tagen ab.', 'in 3 Tagen ab.', 'in 1 Stunde ab.', 'in 12 Stunden ab.', 'in 30 Minuten ab.'],
    es: ['en 7 días.', 'en 3 días.', 'en 1 hora.', 'en 12 horas.', 'en 30 minutos.'],
    fr: ['dans 7 jours.', 'dans 3 jours.', 'dans 1 heure.', 'dans 12 heures.', 'dans 30 minutes.'],
    ja: ['7 日後', '3 日後', '1 時間後', '12 時間後', '30 分後'],
    pt_BR: ['em 7 dias.', 'em 3 dias.', 'em 1 hora.', 'em 12 horas.', 'em 30 minutos.'],
    zh_CN: ['7 天后', '3 天后', '1 小时后', '12 小时后', '30 分钟后'],
    zh_TW: ['7 天後', '3 天後', '1 小時後', '12 小時後', '30 分鐘後'],
  };

  it.each(CONSOLE_LOCALES)(
    'is said in days, in hours under a day, in minutes under an hour, in %s',
    (locale) => {
      const i18n = catalogs.get(locale);
      if (i18n === undefined) throw new Error(`No catalog for ${locale}.`);
      const lifetimes = [ENROLLMENT_CODE_TTL_DAYS * 24 * 60, 72 * 60, 60, 12 * 60, 30];
      lifetimes.forEach((lifetimeMinutes, index) => {
        const mail = renderMail(i18n, bcp47For(locale), 'enrollment', facts, { ...action, lifetimeMinutes });
        expect(mail.text).toContain(SAID[locale][index]);
        expect(mail.text).not.toMatch(/168|72/);
      });
    },
  );
});
