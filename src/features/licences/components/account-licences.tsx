import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AccountLicence, LicenceHistoryItem } from '../../../../contract/schemas/licences.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { APPLICATION_NAMES } from '../../../components/role-labels.ts';
import { SectionCard, SectionEmpty } from '../../../components/section-card.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Temporal } from '../../../lib/temporal.ts';
import { licenceAmount, licenceTypeLabel } from '../model.ts';
import { accountLicencesQueryOptions, licenceHistoryDetailsQueryOptions, licenceKeys } from '../queries.ts';
import { LicenceChart } from './licence-chart.tsx';
import { LicenceEditDialog } from './licence-edit-dialog.tsx';
import './licences.css';

interface LicenceCardProps {
  accountId: string;
  accountName: string;
  licence: AccountLicence;
  history: readonly LicenceHistoryItem[];
  onChanged: () => void;
}

/** One application's licence types with their figures (J-02, J-05), its edit (J-03) and its chart. */
function LicenceCard({ accountId, accountName, licence, history, onChanged }: LicenceCardProps) {
  const { i18n } = useLingui();
  const [editing, setEditing] = useState(false);
  const application = APPLICATION_NAMES[licence.id];
  return (
    <SectionCard titleId={`licence-${licence.id}`} title={application}>
      <table className="account-table">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Licence type</Trans>
            </th>
            <th scope="col">
              <Trans>Remaining</Trans>
            </th>
            <th scope="col">
              <Trans>Total allocated</Trans>
            </th>
            <th scope="col">
              <Trans>Used</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {licence.data.map((row) => (
            <tr key={row.featureId}>
              <th scope="row">{licenceTypeLabel(row.featureId, i18n)}</th>
              <td>{licenceAmount(row.remaining, i18n)}</td>
              <td>{licenceAmount(row.totalAllocated, i18n)}</td>
              <td>{licenceAmount(row.used, i18n)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {licence.data
        .filter((row) => row.overUse > 0)
        .map((row) => {
          const type = licenceTypeLabel(row.featureId, i18n);
          const over = i18n.number(row.overUse);
          const used = i18n.number(row.used);
          const total = i18n.number(row.totalAllocated);
          return (
            <Alert key={row.featureId} tone="warning">
              <Trans>
                Over licence: {used} {type} in use against {total} allocated, {over} more than the licence
                allows.
              </Trans>
            </Alert>
          );
        })}
      <LicenceChart licence={licence} history={history} now={Temporal.Now.instant().epochMilliseconds} />
      {licence.canEdit ? (
        <>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            <Trans>
              Edit <span className="visually-hidden">{application} licences</span>
            </Trans>
          </Button>
          <LicenceEditDialog
            accountId={accountId}
            accountName={accountName}
            licence={licence}
            open={editing}
            onOpenChange={setEditing}
            onChanged={onChanged}
          />
        </>
      ) : null}
    </SectionCard>
  );
}

/** The sections the viewer may see (J-09) that count anything: the account manager has no licence types (J-38). */
function shownLicences(items: readonly AccountLicence[]): AccountLicence[] {
  return items.filter((licence) => licence.visible && licence.data.length > 0);
}

/**
 * Applications with licence types that the account holds none of while its parent has none left to
 * give (the server's `visible: false`): named, so that nobody wonders why they cannot be allocated.
 */
function NothingToAllocate({ items }: { items: readonly AccountLicence[] }) {
  const { i18n } = useLingui();
  const unavailable = items.filter((licence) => !licence.visible && licence.data.length > 0);
  const first = unavailable[0];
  if (!first) return null;
  const parentName = first.parent.name;
  const applications = new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(
    unavailable.map((licence) => APPLICATION_NAMES[licence.id]),
  );
  return (
    <p className="licences__unavailable">
      <Trans>
        Not allocated to this account, and {parentName} has none left to give: {applications}.
      </Trans>
    </p>
  );
}

interface AccountLicencesProps {
  accountId: string;
  accountName: string;
  /** Opens the account's whole licence history (J-04). */
  onViewHistory: () => void;
  /** What else a change makes stale: the account's applications follow its allocations. */
  onChanged: () => void;
}

/** The Licences section of an account (J-01 … J-09): a card per application the viewer may see. */
export function AccountLicences({ accountId, accountName, onViewHistory, onChanged }: AccountLicencesProps) {
  const queryClient = useQueryClient();
  const query = useQuery(accountLicencesQueryOptions(accountId));
  const history = useQuery(licenceHistoryDetailsQueryOptions(accountId, Temporal.Now.timeZoneId()));
  const refresh = () => {
    // Every account's, not only this one's: the parent's pool (its remaining and used) moved too.
    void queryClient.invalidateQueries({ queryKey: licenceKeys.all() });
    onChanged();
  };
  return (
    <QueryStatus
      query={query}
      pendingText={<Trans>Loading licences…</Trans>}
      empty={{
        when: ({ items }) => items.every((licence) => licence.data.length === 0),
        content: (
          <SectionEmpty>
            <Trans>This account has no licensed applications.</Trans>
          </SectionEmpty>
        ),
      }}
    >
      {({ items }) => (
        <>
          <div className="account-cards">
            {shownLicences(items).map((licence) => (
              <LicenceCard
                key={licence.id}
                accountId={accountId}
                accountName={accountName}
                licence={licence}
                history={history.data?.items ?? []}
                onChanged={refresh}
              />
            ))}
          </div>
          <NothingToAllocate items={items} />
          <Button variant="secondary" onClick={onViewHistory}>
            <Trans>View history</Trans>
          </Button>
        </>
      )}
    </QueryStatus>
  );
}
