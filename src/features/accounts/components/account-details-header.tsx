import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Tenant, TenantType } from '../../../../contract/schemas/tenants.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { formatAccountDate, languageOf } from './account-details-model.ts';

const TYPE_LABELS: Readonly<Record<TenantType, MessageDescriptor>> = {
  system: msg`System`,
  standard: msg`Standard`,
  partner: msg`Partner`,
};

/** The status block under the title (G-05 … G-10). */
export function AccountDetailsHeader({ account }: { account: Tenant }) {
  const { t, i18n } = useLingui();
  const profile = useProfile();
  const flags = useFeatureFlags();
  const notSet = t`Not set`;
  const from = formatAccountDate(account.service_period.from, profile, i18n.locale) ?? notSet;
  const to = formatAccountDate(account.service_period.to, profile, i18n.locale) ?? t`No end date`;
  const language = languageOf(account.locale);
  return (
    <dl className="account-status" aria-label={t`Account status`}>
      <div className="account-status__item">
        <dt>
          <Trans>Status</Trans>
        </dt>
        <dd>
          <span
            className={`account-status__badge account-status__badge--${account.active ? 'active' : 'inactive'}`}
          >
            {account.active ? <Trans>Active</Trans> : <Trans>Inactive</Trans>}
          </span>
        </dd>
      </div>
      <div className="account-status__item">
        <dt>
          <Trans>Account ID</Trans>
        </dt>
        <dd className="account-status__id">{account.id}</dd>
      </div>
      <div className="account-status__item">
        <dt>
          <Trans>Service start</Trans>
        </dt>
        <dd>{from}</dd>
      </div>
      <div className="account-status__item">
        <dt>
          <Trans>Service end</Trans>
        </dt>
        <dd>{to}</dd>
      </div>
      <div className="account-status__item">
        <dt>
          <Trans>Language</Trans>
        </dt>
        <dd lang={language.lang}>{language.name}</dd>
      </div>
      {account.partner_account_name ? (
        <div className="account-status__item">
          <dt>
            <Trans>Partner account</Trans>
          </dt>
          <dd>{account.partner_account_name}</dd>
        </div>
      ) : null}
      {flags.partner_scope ? (
        <div className="account-status__item">
          <dt>
            <Trans>Account type</Trans>
          </dt>
          <dd>{i18n._(TYPE_LABELS[account.type])}</dd>
        </div>
      ) : null}
    </dl>
  );
}
