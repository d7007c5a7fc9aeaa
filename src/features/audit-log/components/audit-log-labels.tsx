import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { AuditAction, AuditResourceType, AuditStatus } from '../../../../contract/audit.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatTimestamp } from '../../../lib/dates.ts';
import { Temporal } from '../../../lib/temporal.ts';
import './audit-log.css';

/**
 * What happened, in words. The filter offers the spec's actions (P-07) by these names; the event's
 * page also shows the code, which is what exports, the API and other tools carry.
 */
export const AUDIT_ACTION_LABELS: Readonly<Record<AuditAction, MessageDescriptor>> = {
  CREATE: msg`Created`,
  UPDATE: msg`Updated`,
  DELETE: msg`Deleted`,
  LOGIN: msg`Signed in`,
  LOGIN_ERROR: msg`Sign-in failed`,
  LOGOUT: msg`Signed out`,
  UPDATE_PASSWORD: msg`Password changed`,
  TERMS_AND_CONDITIONS: msg`Terms accepted`,
  SEND_RESET_PASSWORD: msg`Password reset e-mail sent`,
  SEND_CLIENT_AUTH_SETUP: msg`Certificate sign-in set-up e-mail sent`,
  SEND_USER_MAIL: msg`E-mail to the user sent`,
};

/** What an event is about, in words (P-09); the code beside it on the event's page. */
export const AUDIT_RESOURCE_TYPE_LABELS: Readonly<Record<AuditResourceType, MessageDescriptor>> = {
  APIKEY: msg`API token`,
  ACCOUNT: msg`Account`,
  USER: msg`User`,
  SSO_SAML: msg`SAML sign-in`,
  SSO_SAML_MFA: msg`SAML sign-in with a second factor`,
  SSO_OIDC: msg`OIDC sign-in`,
  ONELOGIN: msg`OneLogin sign-in`,
  SSO_OIDC_MFA: msg`OIDC sign-in with a second factor`,
  BASIC_AUTH: msg`Password sign-in`,
  BASIC_AUTH_MFA: msg`Password sign-in with a second factor`,
  SAML2_CONFIG: msg`SAML configuration`,
  CLIENT_AUTH_CERT: msg`Client authentication certificate`,
  CLIENT_AUTH_CERT_MFA: msg`Client certificate sign-in with a second factor`,
  OAUTH_CLIENT: msg`OAuth client`,
  OAUTH_CONFIG: msg`OAuth configuration`,
  LICENSE: msg`Licence`,
  DIGEST_AUTH: msg`Digest sign-in`,
  SSO_OIDC_IDP_MFA: msg`Second factor at the OIDC identity provider`,
  ORGANIZATION: msg`Organization`,
  ORGANIZATION_CONTACT: msg`Organization contact`,
  ROLE: msg`Role`,
  CERTIFICATE_AUTHORITY: msg`Certificate authority`,
  CERTIFICATE_PROFILE: msg`Certificate profile`,
  CERTIFICATE: msg`Certificate`,
  SEAT: msg`Seat`,
  ENROLLMENT: msg`Enrollment`,
  BULK_IMPORT: msg`Bulk import of users`,
};

/** The names of an event's outcomes (P-08). */
export const AUDIT_STATUS_LABELS: Readonly<Record<AuditStatus, MessageDescriptor>> = {
  success: msg`Success`,
  failure: msg`Failure`,
};

/** Whether the event succeeded, green or red, always with its name. */
export function AuditStatusBadge({ status }: { status: AuditStatus }) {
  const { i18n } = useLingui();
  return (
    <StatusBadge
      tone={status === 'success' ? 'good' : 'bad'}
      status={status}
      marker={`audit-status--${status}`}
    >
      {i18n._(AUDIT_STATUS_LABELS[status])}
    </StatusBadge>
  );
}

/** When an event happened, `YYYY-MM-DD HH:mm:ss` in the viewer's time zone (P-10, D-11). */
export function auditTime(occurredAt: string): string {
  return formatTimestamp(Temporal.Instant.from(occurredAt), Temporal.Now.timeZoneId());
}
