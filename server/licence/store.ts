import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { APPLICATION_CODES, type ApplicationCode } from '../../contract/permissions.ts';
import type { LicencePayload, LicenceStatus } from '../../contract/schemas/licence.ts';
import { utcDate } from '../dates.ts';
import type { Database, Licence } from '../db/schema.ts';

/** The licence in force: the one installed last. Earlier ones stay as history. */
export function findCurrentLicence(db: Kysely<Database>): Promise<Licence | undefined> {
  return db
    .selectFrom('licences')
    .selectAll()
    .orderBy('installed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Status of the current licence on the given day. A stored licence passed signature checks when it
 * was installed; only its dates can turn it invalid since, and a licence not yet started (the clock
 * was turned back) grants nothing either.
 */
export async function currentLicenceStatus(db: Kysely<Database>, now: Date): Promise<LicenceStatus> {
  const licence = await findCurrentLicence(db);
  if (licence === undefined) return 'NOT_FOUND';
  const today = utcDate(now);
  return licence.valid_from <= today && today <= licence.valid_to ? 'VALID' : 'EXPIRED';
}

/** A licence that passed `verifyLicence`, as it is installed. */
export interface LicenceToInstall {
  text: string;
  payload: LicencePayload;
  fingerprint: string;
  installedAt: Date;
  installedBy: string | null;
}

export async function insertLicence(db: Kysely<Database>, licence: LicenceToInstall): Promise<string> {
  const id = randomUUID();
  const { payload } = licence;
  await db
    .insertInto('licences')
    .values({
      id,
      licence_id: payload.licence_id,
      licensee: payload.licensee,
      valid_from: payload.valid_from,
      valid_to: payload.valid_to,
      seats: JSON.stringify(payload.seats),
      body: licence.text,
      key_fingerprint: licence.fingerprint,
      installed_at: licence.installedAt,
      installed_by: licence.installedBy,
    })
    .execute();
  return id;
}

/** Applications with seats (other than 0) in the installed licence, if that licence is valid today. */
export async function licensedApplications(db: Kysely<Database>, now: Date): Promise<Set<ApplicationCode>> {
  if ((await currentLicenceStatus(db, now)) !== 'VALID') return new Set();
  const licence = await findCurrentLicence(db);
  const seats = licence?.seats ?? {};
  return new Set(APPLICATION_CODES.filter((code) => (seats[code] ?? 0) !== 0));
}
