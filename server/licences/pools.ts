import type { Kysely } from 'kysely';
import {
  LICENCE_TYPES,
  type LicenceRowState,
  licenceOverUse,
  licenceRemaining,
  UNLIMITED,
} from '../../contract/licences.ts';
import type { ApplicationCode } from '../../contract/permissions.ts';
import type { LicencePayload } from '../../contract/schemas/licence.ts';
import type { Tenant } from '../../contract/schemas/tenants.ts';
import type { Database } from '../db/schema.ts';
import { findCurrentLicence, storedPayload, systemPoolLimit } from '../licence/index.ts';
import {
  type AccountPlace,
  allocatedToChildren,
  findParent,
  licenceVersion,
  lockAllocations,
  meteredUse,
  storedAllocations,
  typeKey,
} from './repository.ts';

/**
 * The numbers of decision 022 §1 for one account: its total of each licence type (the installed
 * licence's for the system account), what it uses (what it gave its accounts, for the system and a
 * partner; the platform's count for a metered type; the reported use otherwise), what remains, and
 * what its parent can still give it.
 */

/** An application's licence types as the tenant record lists them. */
type LicenceFeatures = Tenant['applications'][number]['features'];

export interface LicenceTypeState extends LicenceRowState {
  metered: boolean;
  /** How far the use went past the total (`licenceOverUse`). */
  overUse: number;
}

export interface AccountLicenceState {
  account: AccountPlace;
  parent: AccountPlace;
  app: ApplicationCode;
  /** The version of the account's allocations of the application, for If-Match. */
  version: number;
  rows: LicenceTypeState[];
  /** Reset is offered only to accounts holding a document signing manager licence (J-12). */
  hasDocumentSigningLicence: boolean;
}

/** The payload of the installed licence: the system pools. */
export async function systemPayload(db: Kysely<Database>): Promise<LicencePayload | null> {
  const licence = await findCurrentLicence(db);
  return licence ? storedPayload(licence) : null;
}

/** A function answering the total of one type of `place`: the licence's for the system account. */
async function totalsOf(
  db: Kysely<Database>,
  place: AccountPlace,
  payload: LicencePayload | null,
  app?: ApplicationCode,
) {
  const stored = await storedAllocations(db, place.id, app);
  return {
    stored,
    total: (typeApp: ApplicationCode, type: string): number =>
      place.system_account
        ? systemPoolLimit(payload, typeApp, type)
        : (stored.get(typeKey(typeApp, type))?.total ?? 0),
  };
}

/** Whether `place` holds a document signing manager licence: a total other than 0 of any of its types. */
async function holdsDocumentSigning(
  db: Kysely<Database>,
  place: AccountPlace,
  payload: LicencePayload | null,
): Promise<boolean> {
  const app = 'document_signing_manager';
  const { total } = await totalsOf(db, place, payload, app);
  return LICENCE_TYPES[app].some((type) => total(app, type.id) !== 0);
}

/**
 * The account's licence of `app`. With `lock`, the parent's rows of the application and then the
 * account's are locked first (`lockAllocations`), so every number read after holds until the
 * transaction ends: a change reads them under its locks.
 */
export async function licenceState(
  db: Kysely<Database>,
  account: AccountPlace,
  app: ApplicationCode,
  now: Date,
  lock: boolean,
): Promise<AccountLicenceState> {
  const parent = await findParent(db, account);
  const types = LICENCE_TYPES[app];
  if (lock && types.length > 0) {
    const chain = account.system_account ? [account.id] : [parent.id, account.id];
    await lockAllocations(
      db,
      chain,
      app,
      types.map((type) => type.id),
    );
  }
  const payload = await systemPayload(db);
  const [own, given, parentTotals, parentGiven, version, hasDocumentSigningLicence] = await Promise.all([
    totalsOf(db, account, payload, app),
    allocatedToChildren(db, account, app),
    totalsOf(db, parent, payload, app),
    allocatedToChildren(db, parent, app),
    licenceVersion(db, account.id, app, lock),
    holdsDocumentSigning(db, account, payload),
  ]);
  const rows = await Promise.all(
    types.map(async (type): Promise<LicenceTypeState> => {
      const key = typeKey(app, type.id);
      const totalAllocated = own.total(app, type.id);
      const used = await usedOf(db, account, app, type, { given, stored: own.stored }, now);
      const parentTotal = parentTotals.total(app, type.id);
      return {
        feature: type.id,
        metered: type.metered,
        totalAllocated,
        used,
        remaining: licenceRemaining(totalAllocated, used),
        overUse: licenceOverUse(totalAllocated, used),
        // The system account draws from no one. A pool that shrank below what it gave (a new licence
        // with lower limits) has nothing to give, rather than a negative amount.
        allocationAvailable: account.system_account
          ? 0
          : parentTotal === UNLIMITED
            ? UNLIMITED
            : Math.max(0, parentTotal - (parentGiven.get(key) ?? 0)),
      };
    }),
  );
  return { account, parent, app, version, rows, hasDocumentSigningLicence };
}

/** A partner's (and the system's) use is what it gave; an account's is counted or reported. */
function usedOf(
  db: Kysely<Database>,
  account: AccountPlace,
  app: ApplicationCode,
  type: { id: string; metered: boolean },
  known: { given: ReadonlyMap<string, number>; stored: ReadonlyMap<string, { used: number }> },
  now: Date,
): Promise<number> | number {
  const key = typeKey(app, type.id);
  if (account.system_account || account.type === 'partner') return known.given.get(key) ?? 0;
  if (type.metered) return meteredUse(db, account.id, app, type.id, now);
  return known.stored.get(key)?.used ?? 0;
}

/**
 * Every licence type of every application the account holds, with its total, use and remainder, in
 * catalogue order: the tenant record's `applications[].features`. An application is the account's
 * when any of its types has a total other than 0.
 */
export async function heldApplications(
  db: Kysely<Database>,
  account: AccountPlace,
  now: Date,
): Promise<Map<ApplicationCode, LicenceFeatures>> {
  const payload = await systemPayload(db);
  const [own, given] = await Promise.all([totalsOf(db, account, payload), allocatedToChildren(db, account)]);
  const held = new Map<ApplicationCode, LicenceFeatures>();
  for (const [app, types] of Object.entries(LICENCE_TYPES) as [
    ApplicationCode,
    readonly { id: string; metered: boolean }[],
  ][]) {
    if (!types.some((type) => own.total(app, type.id) !== 0)) continue;
    held.set(
      app,
      await Promise.all(
        types.map(async (type) => {
          const limit = own.total(app, type.id);
          const used = await usedOf(db, account, app, type, { given, stored: own.stored }, now);
          return {
            name: type.id,
            attributes: {
              limit,
              used,
              remaining: licenceRemaining(limit, used),
              over_use: licenceOverUse(limit, used),
            },
          };
        }),
      ),
    );
  }
  return held;
}
