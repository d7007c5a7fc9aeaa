import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as v from 'valibot';
import { APPLICATION_CODES, type ApplicationCode } from '../../contract/permissions.ts';
import {
  type LicencePayload,
  type LicenceStatus,
  licencePayloadSchema,
} from '../../contract/schemas/licence.ts';
import { utcDate } from '../dates.ts';
import type { Database, Licence } from '../db/schema.ts';
import { unarmourLicence } from './format.ts';

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

/**
 * The signed payload of a stored licence. Its signature was verified when it was installed and the
 * text is never changed since, so it is read here without the checks; a text that does not read is
 * answered null.
 */
export function storedPayload(licence: Pick<Licence, 'body'>): LicencePayload | null {
  const encoded = unarmourLicence(licence.body)?.split('.')[1];
  if (encoded === undefined) return null;
  try {
    const parsed = v.safeParse(
      licencePayloadSchema,
      JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/**
 * The system pool of one licence type (decision 022 §1): the payload's `limits[app][type]`, else the
 * application's `seats`, which a licence issued before licence types existed gives every type; 0 when
 * the licence names neither. -1 is unlimited.
 */
export function systemPoolLimit(payload: LicencePayload | null, app: ApplicationCode, type: string): number {
  return payload?.limits?.[app]?.[type] ?? payload?.seats[app] ?? 0;
}
