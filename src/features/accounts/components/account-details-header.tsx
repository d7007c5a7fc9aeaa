import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { Tenant, TenantType } from '../../../../contract/schemas/tenants.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { formatAccountDate, languageOf } from './account-details-model.ts';

const TYPE_LABELS: Readonly<Record<TenantType, MessageDescriptor>> = {
  system: msg`System`,
  standard: msg`Standard`,
  partner: msg`Partner`,
};

interface StatusItem {
  key: string;
  label: string;
  value: ReactNode;
  /** Present only when the item applies (the partner name, the type behind its flag). */
  shown?: boolean;
  className?: string;
  lang?: string | undefined;
}

/** The status block under the title (G-05 … G-10). */
export function AccountDetailsHeader({ account }: { account: Tenant }) {
  const { t, i18n } = useLingui();
  const profile = useProfile();
  const flags = useFeatureFlags();
  const language = languageOf(account.locale);
  const items: StatusItem[] = [
    {
      key: 'status',
      label: t`Status`,
      value: (
        <span
          className={`account-status__badge account-status__badge--${account.active ? 'active' : 'inactive'}`}
        >
          {account.active ? t`Active` : t`Inactive`}
        </span>
      ),
    },
    { key: 'id', label: t`Account ID`, value: account.id, className: 'account-status__id' },
    {
      key: 'start',
      label: t`Service start`,
      value: formatAccountDate(account.service_period.from, profile, i18n.locale) ?? t`Not set`,
    },
    {
      key: 'end',
      label: t`Service end`,
      value: formatAccountDate(account.service_period.to, profile, i18n.locale) ?? t`No end date`,
    },
    { key: 'language', label: t`Language`, value: language.name, lang: language.lang },
    {
      key: 'partner',
      label: t`Partner account`,
      value: account.partner_account_name,
      shown: Boolean(account.partner_account_name),
    },
    {
      key: 'type',
      label: t`Account type`,
      value: i18n._(TYPE_LABELS[account.type]),
      shown: flags.partner_scope,
    },
  ];
  return (
    <dl className="account-status" aria-label={t`Account status`}>
      {items
        .filter((item) => item.shown !== false)
        .map((item) => (
          <div key={item.key} className="account-status__item">
            <dt>{item.label}</dt>
            <dd className={item.className} lang={item.lang}>
              {item.value}
            </dd>
          </div>
        ))}
    </dl>
  );
}
