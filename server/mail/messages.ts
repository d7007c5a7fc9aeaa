import type { I18n } from '@lingui/core';
import { html } from 'hono/html';
import type { MailKind } from './kinds.ts';

/**
 * The texts of every message (docs/decisions/037-mail.md §3, §4). Sentences are
 * explicit `i18n._({ id, message, values })` descriptors on a parameter named `i18n`: the server runs
 * without Lingui's macro transform, and the extractor collects exactly these calls into
 * `server/i18n/locales/{locale}/server.po`.
 */

/** What a message says about whom; every value is the user's or an administrator's text. */
export interface MailFacts {
  /** The recipient's display name (first and last name, or the user name when both are empty). */
  name: string;
  userName: string;
  /** The name of the user's primary account. */
  account: string;
  /** Who asked for the mail; null when nobody is known (the platform, or the user since deleted). */
  actor: string | null;
}

/** The button of a message with a link: where it goes, and for how long it works (one-time links). */
export interface MailAction {
  url: string;
  lifetimeMinutes: number | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface KindTexts {
  subject: string;
  lead: string;
  /** The button's label; absent for notices without a link. */
  action?: string;
}

type Values = { actor: string; account: string; userName: string };

const KIND_TEXTS: Record<MailKind, (i18n: I18n, values: Values) => KindTexts> = {
  invitation: (i18n, values) => ({
    subject: i18n._({ id: 'mail.invitation.subject', message: 'Finish setting up your account' }),
    lead: i18n._({
      id: 'mail.invitation.lead',
      message: '{actor} created a user account for you in {account}. Your user name is {userName}.',
      values,
    }),
    action: i18n._({ id: 'mail.invitation.action', message: 'Set your password' }),
  }),
  verify_email: (i18n, values) => ({
    subject: i18n._({ id: 'mail.verify_email.subject', message: 'Confirm your e-mail address' }),
    lead: i18n._({
      id: 'mail.verify_email.lead',
      message:
        'This address is now the e-mail address of your user account {userName} in {account}. Confirm it with your current password.',
      values,
    }),
    action: i18n._({ id: 'mail.verify_email.action', message: 'Confirm e-mail address' }),
  }),
  standard_login: (i18n, values) => ({
    subject: i18n._({ id: 'mail.standard_login.subject', message: 'Set a password to sign in' }),
    lead: i18n._({
      id: 'mail.standard_login.lead',
      message: '{actor} turned on password sign-in for your user account {userName} in {account}.',
      values,
    }),
    action: i18n._({ id: 'mail.standard_login.action', message: 'Set your password' }),
  }),
  reset_password: (i18n, values) => ({
    subject: i18n._({ id: 'mail.reset_password.subject', message: 'Reset your password' }),
    lead: i18n._({
      id: 'mail.reset_password.lead',
      message: '{actor} asked for a new password for your user account {userName} in {account}.',
      values,
    }),
    action: i18n._({ id: 'mail.reset_password.action', message: 'Choose a new password' }),
  }),
  sso_sign_in: (i18n, values) => ({
    subject: i18n._({ id: 'mail.sso_sign_in.subject', message: 'Sign in with single sign-on' }),
    lead: i18n._({
      id: 'mail.sso_sign_in.lead',
      message:
        '{actor} created a user account for you in {account}. You sign in through your organization’s single sign-on as {userName}.',
      values,
    }),
    action: i18n._({ id: 'mail.sign_in.action', message: 'Sign in' }),
  }),
  mfa_reset: (i18n, values) => ({
    subject: i18n._({ id: 'mail.mfa_reset.subject', message: 'Set up two-factor authentication again' }),
    lead: i18n._({
      id: 'mail.mfa_reset.lead',
      message:
        '{actor} reset two-factor authentication for your user account {userName} in {account}. You set it up again the next time you sign in.',
      values,
    }),
    action: i18n._({ id: 'mail.sign_in.action', message: 'Sign in' }),
  }),
  unlock: (i18n, values) => ({
    subject: i18n._({ id: 'mail.unlock.subject', message: 'Your user account is unlocked' }),
    lead: i18n._({
      id: 'mail.unlock.lead',
      message: '{actor} unlocked your user account {userName} in {account}. You can sign in again.',
      values,
    }),
    action: i18n._({ id: 'mail.sign_in.action', message: 'Sign in' }),
  }),
  email_changed: (i18n, values) => ({
    subject: i18n._({ id: 'mail.email_changed.subject', message: 'Your e-mail address was changed' }),
    lead: i18n._({
      id: 'mail.email_changed.lead',
      message:
        'The e-mail address of your user account {userName} in {account} was changed. Messages now go to the new address.',
      values,
    }),
  }),
  client_auth_setup: (i18n, values) => ({
    subject: i18n._({
      id: 'mail.client_auth_setup.subject',
      message: 'Set up certificate sign-in',
    }),
    lead: i18n._({
      id: 'mail.client_auth_setup.lead',
      message:
        '{actor} is setting up certificate sign-in for your user account {userName} in {account}. On your client-certificate page you generate a certificate in your browser or upload one you hold.',
      values,
    }),
    action: i18n._({ id: 'mail.client_auth_setup.action', message: 'Open my client certificates' }),
  }),
  enrollment: (i18n, values) => ({
    subject: i18n._({ id: 'mail.enrollment.subject', message: 'Enroll your certificate' }),
    lead: i18n._({
      id: 'mail.enrollment.lead',
      message:
        '{actor} asked for a certificate for {userName} in {account}. Open the link on the computer that should hold the certificate; the trust agent makes its key there.',
      values,
    }),
    action: i18n._({ id: 'mail.enrollment.action', message: 'Enroll certificate' }),
  }),
  enrollment_client_auth: (i18n, values) => ({
    subject: i18n._({ id: 'mail.enrollment_client_auth.subject', message: 'Make your client certificate' }),
    lead: i18n._({
      id: 'mail.enrollment_client_auth.lead',
      message:
        '{actor} asked for a client certificate for {userName} in {account}, to sign in to the console with it. Open the link in the browser you sign in with; it makes the key there and gives it to you in a password-protected file.',
      values,
    }),
    action: i18n._({ id: 'mail.enrollment_client_auth.action', message: 'Make my client certificate' }),
  }),
  password_changed: (i18n, values) => ({
    subject: i18n._({ id: 'mail.password_changed.subject', message: 'Your password was changed' }),
    lead: i18n._({
      id: 'mail.password_changed.lead',
      message: 'The password of your user account {userName} in {account} was changed.',
      values,
    }),
  }),
};

/**
 * How long the link works, in the largest unit that says it exactly: days from one day up (7 days,
 * 3 days), hours under a day (1 hour, 12 hours), minutes otherwise (30 minutes), each with the
 * language's plural forms, so never "168 hours" nor "1 hours".
 */
export function lifetimeSentence(i18n: I18n, minutes: number): string {
  if (minutes >= 24 * 60 && minutes % (24 * 60) === 0) {
    return i18n._({
      id: 'mail.link.lifetime_days',
      message: 'This link works once and expires in {days, plural, one {# day} other {# days}}.',
      values: { days: minutes / (24 * 60) },
    });
  }
  if (minutes >= 60 && minutes % 60 === 0) {
    return i18n._({
      id: 'mail.link.lifetime_hours',
      message: 'This link works once and expires in {hours, plural, one {# hour} other {# hours}}.',
      values: { hours: minutes / 60 },
    });
  }
  return i18n._({
    id: 'mail.link.lifetime_minutes',
    message: 'This link works once and expires in {minutes, plural, one {# minute} other {# minutes}}.',
    values: { minutes },
  });
}

/**
 * The message of `kind` in the language of `i18n`, as plain text and HTML built from the same
 * sentences. `lang` is the BCP 47 tag of that language. Every value reaches the HTML through
 * `hono/html`'s `html` template, which escapes it, so a name such as `<b>` shows as typed.
 */
export function renderMail(
  i18n: I18n,
  lang: string,
  kind: MailKind,
  facts: MailFacts,
  action: MailAction | null,
): RenderedMail {
  const actor = facts.actor ?? i18n._({ id: 'mail.actor.unknown', message: 'An administrator' });
  const texts = KIND_TEXTS[kind](i18n, { actor, account: facts.account, userName: facts.userName });
  const greeting = i18n._({ id: 'mail.greeting', message: 'Hello {name},', values: { name: facts.name } });
  const lifetime =
    action?.lifetimeMinutes === null || action === null
      ? null
      : lifetimeSentence(i18n, action.lifetimeMinutes);
  const copyLink = i18n._({
    id: 'mail.link.copy',
    message: 'If the button does not work, copy this link into your browser:',
  });
  const closing =
    action === null
      ? i18n._({
          id: 'mail.closing.not_you',
          message: 'If this was not you, contact your administrator.',
        })
      : i18n._({
          id: 'mail.closing.ignore',
          message: 'If you did not expect this message, you can ignore it.',
        });
  const footer = i18n._({
    id: 'mail.footer',
    message: 'This message was sent automatically. Replies are not read.',
  });

  const textParts = [greeting, texts.lead];
  if (action !== null && texts.action !== undefined) {
    textParts.push(`${texts.action}:\n${action.url}`);
    if (lifetime !== null) textParts.push(lifetime);
  }
  textParts.push(closing, `-- \n${footer}`);

  const paragraph = 'margin:0 0 16px 0;font-size:15px;line-height:22px;color:#1f2933;';
  const button =
    'display:inline-block;padding:10px 20px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:bold;';
  const actionHtml =
    action !== null && texts.action !== undefined
      ? html`<p style="${paragraph}"><a href="${action.url}" style="${button}">${texts.action}</a></p>
<p style="${paragraph}">${copyLink}<br><a href="${action.url}" style="color:#1d4ed8;word-break:break-all;">${action.url}</a></p>
${lifetime === null ? '' : html`<p style="${paragraph}">${lifetime}</p>`}`
      : '';
  const body = html`<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${texts.subject}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border:1px solid #d9dde3;border-radius:6px;font-family:Arial,Helvetica,sans-serif;"><tr><td style="padding:24px;">
<p style="${paragraph}">${greeting}</p>
<p style="${paragraph}">${texts.lead}</p>
${actionHtml}
<p style="${paragraph}">${closing}</p>
<p style="margin:0;font-size:12px;line-height:18px;color:#616e7c;">${footer}</p>
</td></tr></table>
</td></tr></table>
</body>
</html>`;

  return { subject: texts.subject, text: `${textParts.join('\n\n')}\n`, html: body.toString() };
}
