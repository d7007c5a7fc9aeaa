import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type * as v from 'valibot';
import { APPLICATIONS } from '../../../../contract/applications.ts';
import {
  type AccountFeatureId,
  ENABLE_ALL_APPLICATION,
  type FeatureState,
  featureIssuePart,
  featuresIssue,
  withFeatureToggled,
} from '../../../../contract/licences.ts';
import type { ApplicationCode } from '../../../../contract/permissions.ts';
import {
  type AccountFeature,
  type accountFeatureListSchema,
  accountFeatureUpdateSchema,
} from '../../../../contract/schemas/licences.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { notify } from '../../../components/notify.ts';
import { SectionCard } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { formatUserDate, parseCalendarDate } from '../../../lib/dates.ts';
import { type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { validationMessage } from '../../../lib/validation-messages.ts';
import { useUpdateAccountFeatures } from '../mutations.ts';
import { accountFeatureKeys, accountFeaturesQueryOptions } from '../queries.ts';

type AccountFeatureList = v.InferOutput<typeof accountFeatureListSchema>;

const FEATURE_NAMES: Readonly<Record<AccountFeatureId, MessageDescriptor>> = {
  public_issuance: msg`Public issuance`,
  trial_account: msg`Trial account`,
  key_locker_account: msg`Key-locker account`,
  em_discovery: msg`Discovery`,
  em_automation: msg`Automation`,
  em_reporting: msg`Reporting`,
};

/** An account without an end date runs on: no feature end date is after it. */
const NO_END = '9999-12-31';

/** The feature with an end date to choose (K-10). */
const DATED_FEATURE: AccountFeatureId = 'trial_account';

interface AccountFeaturesProps {
  accountId: string;
  /** Names the change in the outbox. */
  accountName: string;
  /** The account's service end date, which no feature may outlast (K-11); null when it has none. */
  accountEndDate: string | null;
  /** After a save the server took: the account record names its applications by these features. */
  onChanged: () => void;
}

function stateOf(item: AccountFeature): FeatureState {
  return { feature_id: item.featureId, enabled: item.enabled, end_date: item.endDate };
}

/** The applications in the order of the catalogue, each with its features by display order (K-01). */
function groupedByApplication(items: readonly AccountFeature[]) {
  const groups = new Map<ApplicationCode, { item: AccountFeature; index: number }[]>();
  items.forEach((item, index) => {
    const group = groups.get(item.appCode) ?? [];
    group.push({ item, index });
    groups.set(item.appCode, group);
  });
  return [...groups].map(([app, features]) => ({
    app,
    features: features.sort((a, b) => a.item.displayOrder - b.item.displayOrder),
  }));
}

/**
 * The features of an account as toggles per application, with their rules applied as the user
 * toggles (K-08 … K-14), saved together on the version shown (K-04, K-16). Read-only without the
 * right to change them (`canEdit`).
 */
function FeaturesForm({
  list,
  accountId,
  accountName,
  endDate,
  onChanged,
}: {
  list: AccountFeatureList;
  accountId: string;
  accountName: string;
  endDate: string;
  onChanged: () => void;
}) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const viewer = useProfile();
  const update = useUpdateAccountFeatures({ id: accountId, name: accountName });
  const [features, setFeatures] = useState<FeatureState[]>(() => list.items.map(stateOf));
  const { canEdit } = list;
  const permissions = usePermissionFlags();
  const readOnlyReason = !permissions.canManageAccount
    ? t`Your roles let you read these features, not change them.`
    : viewer.access_scope === 'partner' && viewer.primary_account_id === accountId
      ? t`A partner's own features are set by the platform's administrators.`
      : t`This account's features are set by its partner or the platform's administrators.`;
  const indexOf = (id: AccountFeatureId) => features.findIndex((feature) => feature.feature_id === id);

  // K-12, K-13: public issuance turned off while key-locker is on is said at once, and nothing is
  // saved until one of them changes. Turning a feature on or off never needs an end
  // date, so no other rule can be broken by a switch alone.
  const blocked = featuresIssue(features, NO_END);
  const blockedText =
    blocked?.code === 'publicIssuanceRequired' ? validationMessage(blocked.code, i18n) : undefined;
  // The dated feature's end date is the one typed input; a feature turned off keeps no end date.
  const requestOf = (values: FormValues): FeatureState[] =>
    features.map((feature, index) =>
      feature.feature_id === DATED_FEATURE
        ? { ...feature, end_date: feature.enabled ? values[`${index}.end_date`] || null : null }
        : feature,
    );

  const form = useForm(accountFeatureUpdateSchema, {
    request: requestOf,
    // K-12 is said beside its switch as the switches move (below); the end dates are the kit's.
    refine: (values) => {
      const issue = featuresIssue(requestOf(values), endDate);
      if (!issue || issue.code === 'publicIssuanceRequired') return {};
      return { [`${indexOf(issue.feature)}.${featureIssuePart(issue.code)}`]: issue.code };
    },
    onSubmit: async (request) => {
      if (blockedText !== undefined) return;
      const result = await update.mutateAsync({
        update: request,
        version: list.version,
        base: list.items.map(stateOf),
        idempotencyKey: newIdempotencyKey(),
      });
      if (isQueued(result)) {
        notify('info', t`Saved on this device. The change is sent when the connection returns.`);
      } else {
        notify('success', t`Features saved.`);
        onChanged();
      }
    },
  });

  const toggle = (id: AccountFeatureId, enabled: boolean) =>
    setFeatures((current) => withFeatureToggled(current, id, enabled));
  const toggleAll = (ids: readonly AccountFeatureId[], enabled: boolean) =>
    setFeatures((current) => ids.reduce((next, id) => withFeatureToggled(next, id, enabled), current));

  const switchError = (index: number, id: AccountFeatureId) =>
    form.errorOf(`${index}.enabled`) ?? (blocked?.feature === id ? blockedText : undefined);

  return (
    <Form
      form={form}
      aria-label={t`Account features`}
      onReload={() => void queryClient.invalidateQueries({ queryKey: accountFeatureKeys.detail(accountId) })}
    >
      <div className="account-cards">
        {groupedByApplication(list.items).map(({ app, features: group }) => {
          const appName = APPLICATIONS[app].name;
          const ids = group.map(({ item }) => item.featureId);
          const allOn = group.every(({ index }) => features[index]?.enabled);
          return (
            <SectionCard key={app} titleId={`features-${app}`} title={appName}>
              <ul className="feature-list">
                {app === ENABLE_ALL_APPLICATION ? (
                  <li className="feature-list__all">
                    <Switch checked={allOn} disabled={!canEdit} onCheckedChange={(on) => toggleAll(ids, on)}>
                      <Trans>Enable all {appName} features</Trans>
                    </Switch>
                  </li>
                ) : null}
                {group.map(({ item, index }) => {
                  const state = features[index] ?? stateOf(item);
                  const dated = item.featureId === DATED_FEATURE && state.enabled;
                  const shownEndDate = parseCalendarDate(state.end_date);
                  return (
                    <li key={item.featureId}>
                      <Switch
                        name={`${index}.enabled`}
                        checked={state.enabled}
                        disabled={!canEdit}
                        error={switchError(index, item.featureId)}
                        onCheckedChange={(on) => toggle(item.featureId, on)}
                      >
                        {i18n._(FEATURE_NAMES[item.featureId])}
                      </Switch>
                      {dated && canEdit ? (
                        <TextField
                          label={t`Trial end date`}
                          type="date"
                          required
                          max={endDate === NO_END ? undefined : endDate}
                          defaultValue={state.end_date ?? ''}
                          {...form.field(`${index}.end_date`)}
                        />
                      ) : null}
                      {dated && !canEdit && shownEndDate ? (
                        <p className="feature-list__end">
                          <Trans>
                            Ends on {formatUserDate(shownEndDate, viewer.date_format, i18n.locale)}
                          </Trans>
                        </p>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </SectionCard>
          );
        })}
      </div>
      {canEdit ? (
        <div className="account-section__actions">
          {/* While a rule blocks the change, Save says why and does nothing; said as it happens. */}
          <Button
            {...form.submitProps}
            aria-disabled={blockedText !== undefined || form.submitProps['aria-disabled']}
            aria-describedby={blockedText === undefined ? undefined : 'features-blocked'}
          >
            <Trans>Save features</Trans>
          </Button>
          <p id="features-blocked" className="account-section__hint" aria-live="polite">
            {blockedText}
          </p>
        </div>
      ) : (
        <p className="account-section__hint">{readOnlyReason}</p>
      )}
    </Form>
  );
}

/** The Features section of an account's details (K-01 … K-16). */
export function AccountFeatures({ accountId, accountName, accountEndDate, onChanged }: AccountFeaturesProps) {
  const query = useQuery(accountFeaturesQueryOptions(accountId));
  const endDate = parseCalendarDate(accountEndDate)?.toString() ?? NO_END;
  return (
    <QueryStatus query={query} pendingText={<Trans>Loading features…</Trans>}>
      {(list) => (
        // A new version (saved, or reloaded after a conflict) starts the form again from it.
        <FeaturesForm
          key={list.version}
          list={list}
          accountId={accountId}
          accountName={accountName}
          endDate={endDate}
          onChanged={onChanged}
        />
      )}
    </QueryStatus>
  );
}
