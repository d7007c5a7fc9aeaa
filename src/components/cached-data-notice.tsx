import { Trans, useLingui } from '@lingui/react/macro';
import { useOnline } from '../lib/offline/online.ts';
import { Alert } from './ui/alert.tsx';
import './offline.css';

/** Date and time in the user's language, for "data as of". */
export function formatDataTime(epochMs: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(epochMs);
}

/**
 * "Offline — data as of …" on a screen drawn from cached data while offline. `updatedAt` is the
 * `dataUpdatedAt` of the screen's queries; the oldest one is the one to trust least, so it is shown.
 */
export function CachedDataNotice({ updatedAt }: { updatedAt: number | readonly number[] }) {
  const online = useOnline();
  const { i18n } = useLingui();
  if (online) return null;
  const times = (typeof updatedAt === 'number' ? [updatedAt] : updatedAt).filter((time) => time > 0);
  if (times.length === 0) return null;
  const asOf = formatDataTime(Math.min(...times), i18n.locale);
  return (
    <Alert tone="warning">
      <Trans>Offline — data as of {asOf}. Changes you make are sent when the connection returns.</Trans>
    </Alert>
  );
}
