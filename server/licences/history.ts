import type { Selectable } from 'kysely';
import type { LicenceHistoryItem } from '../../contract/schemas/licences.ts';
import { dateInZone } from '../dates.ts';
import type { LicenceHistoryTable } from '../db/schema.ts';
import type { Principal } from '../identity/principal.ts';

/** The zone history dates are given in when the request names none. */
export const DEFAULT_HISTORY_ZONE = 'UTC';

/**
 * A history row as it is answered (J-42): `date` is the calendar day in the asked zone, which the
 * rail groups by; the actor's name is answered to system scope only (J-43).
 */
export function historyItem(
  row: Selectable<LicenceHistoryTable>,
  principal: Principal,
  zone: string,
): LicenceHistoryItem {
  return {
    id: row.id,
    timestamp: row.at.toISOString(),
    date: dateInZone(row.at, zone),
    actor: principal.accessScope === 'system' ? row.actor_name : null,
    app_code: row.app_code,
    feature: row.feature,
    quantity: row.quantity,
    limit: row.new_limit,
  };
}
