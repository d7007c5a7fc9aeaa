import { type PollingLoop, pollingLoop } from '../polling-loop.ts';
import { type CaDeps, signCrl } from './crl.ts';

/**
 * A CRL is signed again once half its validity has passed (12 h before nextUpdate with the default
 * CRL_VALIDITY_HOURS of 24), so a relying party that fetched it late still holds a current one.
 */
export function crlIsDue(
  ca: { crl_next_update: Date | string | null; crl_this_update: Date | string | null },
  now: Date,
): boolean {
  if (ca.crl_next_update === null || ca.crl_this_update === null) return true;
  const thisUpdate = new Date(ca.crl_this_update).getTime();
  const nextUpdate = new Date(ca.crl_next_update).getTime();
  return now.getTime() >= thisUpdate + (nextUpdate - thisUpdate) / 2;
}

/**
 * One pass: re-signs the CRL of every CA whose certificate has not expired and whose CRL is due.
 * Each CA in a transaction of its own that locks its row and checks again, so of several processes
 * passing at once one signs and the others see a fresh CRL. Answers the ids re-signed.
 */
export async function refreshDueCrls(deps: CaDeps): Promise<string[]> {
  const now = deps.now();
  const candidates = await deps.db
    .selectFrom('certificate_authorities')
    .select(['id', 'crl_this_update', 'crl_next_update'])
    .where('not_after', '>', now)
    .execute();
  const signed: string[] = [];
  for (const candidate of candidates.filter((ca) => crlIsDue(ca, now))) {
    const resigned = await deps.db.transaction().execute(async (trx) => {
      const locked = await trx
        .selectFrom('certificate_authorities')
        .select(['id', 'crl_this_update', 'crl_next_update'])
        .where('id', '=', candidate.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (!crlIsDue(locked, deps.now())) return false;
      await signCrl(deps, trx, locked.id);
      return true;
    });
    if (resigned) signed.push(candidate.id);
  }
  return signed;
}

/** The CRL re-signing loop of this process: a pass at start, then every `intervalMs` (10 minutes). */
export function createCrlScheduler(deps: CaDeps, intervalMs = 10 * 60_000): PollingLoop {
  return pollingLoop({
    intervalMs: Math.min(intervalMs, (deps.config.crlValidityHours * 3_600_000) / 4),
    pass: () => refreshDueCrls(deps),
    onError: (error) => console.error('Re-signing the CRLs failed; the next pass tries again:', error),
  });
}
