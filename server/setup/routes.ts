import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { SetupStatus } from '../../contract/schemas/setup.ts';
import {
  setupLicenceRequestSchema,
  setupStatusSchema,
  setupUserRequestSchema,
} from '../../contract/schemas/setup.ts';
import { createdSchema, setupLicenceResultSchema } from '../../contract/schemas/setup-results.ts';
import type { AppDeps } from '../app-deps.ts';
import { recordAuditEvent } from '../audit/record.ts';
import type { Database } from '../db/schema.ts';
import { ensureSystemAccount } from '../db/system-account.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError, errorResponse } from '../http/errors.ts';
import { validateJson } from '../http/validate.ts';
import { hashPassword, inPasswordHashingTurn } from '../identity/passwords.ts';
import {
  currentLicenceStatus,
  describeLicenceFailure,
  insertLicence,
  licenceFailureCode,
  loadTrustedLicenceKeys,
  verifyLicence,
} from '../licence/index.ts';
import { ensureBuiltInRoles, insertUser } from '../users/index.ts';
import { administratorExists, takeSetupLock } from './repository.ts';

/** Runs `work` in a transaction holding the setup lock, refusing once an administrator exists. */
function whileSetupIsOpen<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await takeSetupLock(trx);
    if (await administratorExists(trx)) throw new ApiError(403, 'Setup is already complete.');
    return work(trx);
  });
}

/** First-time setup: the licence, then the first administrator. Public until that administrator exists. */
export function setupRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;

  return new Hono<AppEnv>()
    .get(
      '/setup/status',
      describeOperation({
        tag: 'Setup',
        summary: 'What first-time setup still needs.',
        success: { status: 200, description: 'Setup progress', schema: setupStatusSchema },
        failures: [],
      }),
      async (c) => {
        const [licence, administrator] = await Promise.all([
          currentLicenceStatus(db, deps.now()),
          administratorExists(db),
        ]);
        const body: SetupStatus = {
          licence_installed: licence === 'VALID',
          administrator_exists: administrator,
        };
        return c.json(body);
      },
    )

    .post(
      '/setup/license',
      describeOperation({
        tag: 'Setup',
        summary: 'Installs the signed licence; open only until the first administrator exists.',
        success: { status: 201, description: 'Licence installed', schema: setupLicenceResultSchema },
        failures: [400, 403, 413, 415],
      }),
      validateJson(setupLicenceRequestSchema),
      async (c) => {
        const { body: text } = c.req.valid('json');
        const now = deps.now();
        const ipAddress = clientAddress(c, config);
        const userAgent = c.req.header('User-Agent') ?? null;
        const verification = await verifyLicence(text, await loadTrustedLicenceKeys(config), now);

        return whileSetupIsOpen(db, async (trx) => {
          if (!verification.ok) {
            await recordAuditEvent(trx, {
              action: 'CREATE',
              status: 'failure',
              resourceType: 'LICENSE',
              ipAddress,
              userAgent,
              details: { reason: verification.failure.reason },
              occurredAt: now,
            });
            // The failed attempt stays on record: the 400 is answered, not thrown, so the transaction commits.
            return errorResponse(c, 400, describeLicenceFailure(verification.failure), {
              field: 'body',
              code: licenceFailureCode(verification.failure),
            });
          }
          const { payload, fingerprint } = verification;
          const id = await insertLicence(trx, {
            text,
            payload,
            fingerprint,
            installedAt: now,
            installedBy: null,
          });
          await recordAuditEvent(trx, {
            action: 'CREATE',
            status: 'success',
            resourceType: 'LICENSE',
            resourceId: id,
            ipAddress,
            userAgent,
            details: {
              licence_id: payload.licence_id,
              licensee: payload.licensee,
              valid_from: payload.valid_from,
              valid_to: payload.valid_to,
              key_fingerprint: fingerprint,
            },
            occurredAt: now,
          });
          return c.json(
            { status: 'VALID' as const, licensee: payload.licensee, valid_to: payload.valid_to },
            201,
          );
        });
      },
    )

    .post(
      '/setup/user',
      describeOperation({
        tag: 'Setup',
        summary: 'Creates the first administrator (system scope); needs a valid licence.',
        success: { status: 201, description: 'Administrator created', schema: createdSchema },
        failures: [400, 403, 409, 415, 429],
      }),
      validateJson(setupUserRequestSchema),
      async (c) => {
        const form = c.req.valid('json');
        const now = deps.now();
        // Refused before any expensive work: once setup is done, anyone may call this, and hashing for
        // each caller (19 MiB and tens of milliseconds apiece) would let them slow the server for all.
        // The check under the lock below stays: two first administrators may race.
        if (await administratorExists(db)) throw new ApiError(403, 'Setup is already complete.');
        // Hashed before the transaction: argon2 takes tens of milliseconds and must not hold the lock.
        const passwordHash = await inPasswordHashingTurn(`ip:${clientAddress(c, config)}`, () =>
          hashPassword(form.password),
        );

        const id = await whileSetupIsOpen(db, async (trx) => {
          const licence = await currentLicenceStatus(trx, now);
          if (licence === 'NOT_FOUND') throw new ApiError(409, 'Install a license first.');
          if (licence === 'EXPIRED')
            throw new ApiError(409, 'The installed license has expired: install a valid license first.');

          const systemAccountId = await ensureSystemAccount(trx, now);
          const roles = await ensureBuiltInRoles(trx, now);
          const userId = await insertUser(trx, {
            userName: form.user_name,
            firstName: form.first_name,
            lastName: form.last_name,
            email: form.email,
            accessScope: 'system',
            primaryAccountId: systemAccountId,
            passwordHash,
            roleIds: [roles.system_administrator],
            emailVerified: true,
            now,
          });
          await recordAuditEvent(trx, {
            action: 'CREATE',
            status: 'success',
            resourceType: 'USER',
            resourceId: userId,
            accountId: systemAccountId,
            actorId: userId,
            actorName: form.user_name,
            ipAddress: clientAddress(c, config),
            userAgent: c.req.header('User-Agent') ?? null,
            details: { user_name: form.user_name, access_scope: 'system', roles: ['system_administrator'] },
            occurredAt: now,
          });
          return userId;
        });
        return c.json({ id }, 201);
      },
    );
}
