import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { LicenceHistoryItem } from '../../../../contract/schemas/licences.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { notifyError } from '../../../components/notify.ts';
import { APPLICATION_NAMES } from '../../../components/role-labels.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { formatUserDate, today } from '../../../lib/dates.ts';
import { saveFile } from '../../../lib/download.ts';
import { Temporal } from '../../../lib/temporal.ts';
import {
  groupByDate,
  historyCsv,
  historyDay,
  historyFileName,
  licenceAmount,
  licenceTypeLabel,
  signedText,
} from '../model.ts';
import { licenceHistoryDetailsQueryOptions, recentLicenceHistoryQueryOptions } from '../queries.ts';
import './licences.css';

function HistoryItem({ item }: { item: LicenceHistoryItem }) {
  const { i18n } = useLingui();
  const application = APPLICATION_NAMES[item.app_code];
  const type = licenceTypeLabel(item.feature, i18n);
  const change = signedText(item.quantity, i18n);
  const total = licenceAmount(item.limit, i18n);
  const actor = item.actor;
  return (
    <li className="licence-history__item">
      <span className="licence-history__what">
        <Trans>
          {application}: {type}
        </Trans>
      </span>{' '}
      <span className="licence-history__change">
        <Trans>
          {change}, new total {total}
        </Trans>
      </span>
      {/* The server names the actor to system scope only (J-43). */}
      {actor ? (
        <>
          {' '}
          <span className="licence-history__actor">
            <Trans>by {actor}</Trans>
          </span>
        </>
      ) : null}
    </li>
  );
}

/** Changes under a heading per day, in the order given (J-40). */
function HistoryGroups({ items }: { items: readonly LicenceHistoryItem[] }) {
  const { i18n } = useLingui();
  const profile = useProfile();
  return groupByDate(items).map((group) => (
    <section key={group.date} className="licence-history__day">
      <h3 className="licence-history__date">{historyDay(group.date, profile.date_format, i18n.locale)}</h3>
      <ul className="licence-history__items">
        {group.items.map((item) => (
          <HistoryItem key={item.id} item={item} />
        ))}
      </ul>
    </section>
  ));
}

interface LicenceHistoryRailProps {
  accountId: string;
  accountName: string;
  /** The whole history rather than the latest changes (J-04). */
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
}

/**
 * The side rail of the account's page (J-39 … J-48): the latest changes by day, the whole history on
 * request, and the file of every change. The whole history stays in the rail, newest first, rather
 * than on a page of its own: it is one account's, and it reads beside the figures it explains.
 */
export function LicenceHistoryRail({
  accountId,
  accountName,
  expanded,
  onExpandedChange,
}: LicenceHistoryRailProps) {
  const { i18n } = useLingui();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const timeZone = Temporal.Now.timeZoneId();
  const recent = useQuery({ ...recentLicenceHistoryQueryOptions(accountId, timeZone), enabled: !expanded });
  const all = useQuery({ ...licenceHistoryDetailsQueryOptions(accountId, timeZone), enabled: expanded });
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [downloading, setDownloading] = useState(false);

  // "View history" moves the reader to what it opened.
  useEffect(() => {
    if (expanded) titleRef.current?.focus();
  }, [expanded]);

  const download = async () => {
    setDownloading(true);
    try {
      const { items } = await queryClient.fetchQuery(licenceHistoryDetailsQueryOptions(accountId, timeZone));
      const csv = historyCsv(items, {
        i18n,
        dateFormat: profile.date_format,
        timeZone,
        withUser: profile.access_scope === 'system',
      });
      const day = formatUserDate(today(), profile.date_format, i18n.locale);
      // The mark makes spreadsheets read the file as UTF-8.
      saveFile(
        new Blob([`\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' }),
        historyFileName(accountName, day),
      );
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <aside className="licence-history" aria-labelledby="licence-history-title">
      <h2 id="licence-history-title" className="licence-history__title" tabIndex={-1} ref={titleRef}>
        <Trans>{accountName} licence history</Trans>
      </h2>
      <Button variant="secondary" busy={downloading} onClick={() => void download()}>
        <Trans>Download CSV</Trans>
      </Button>
      <QueryStatus
        query={expanded ? all : recent}
        pendingText={<Trans>Loading the licence history…</Trans>}
        empty={{
          when: ({ items }) => items.length === 0,
          content: (
            <p className="licence-history__empty">
              <Trans>No licence changes recorded for this account yet.</Trans>
            </p>
          ),
        }}
      >
        {({ items, total }) =>
          expanded ? (
            <>
              <HistoryGroups items={[...items].reverse()} />
              <Button variant="secondary" onClick={() => onExpandedChange(false)}>
                <Trans>Show the latest changes only</Trans>
              </Button>
            </>
          ) : (
            <>
              <HistoryGroups items={items} />
              {total > items.length ? (
                <Button variant="secondary" onClick={() => onExpandedChange(true)}>
                  <Trans>Show all {total} changes</Trans>
                </Button>
              ) : null}
            </>
          )
        }
      </QueryStatus>
    </aside>
  );
}
