import { Hono } from 'hono';
import { SELECTABLE_COUNTRY_CODES } from '../../contract/countries.ts';
import { intlLocaleOf } from '../../contract/locales.ts';
import { apiPaths } from '../../contract/paths.ts';
import {
  accountIdParamsSchema,
  type CertificateProfile,
  type CertificateProfileList,
  type CertificateTemplate,
  type CertificateTemplateList,
  certificateProfileCreateSchema,
  certificateProfileIdParamsSchema,
  certificateProfileListQuerySchema,
  certificateProfileListSchema,
  certificateProfileSchema,
  certificateProfileUpdateSchema,
  certificateTemplateListSchema,
  certificateTemplateQuerySchema,
  type EnrollmentMethodList,
  enrollmentMethodListSchema,
  type KeystoreTypeList,
  keystoreTypeListSchema,
  type NationalityList,
  nationalityListSchema,
  nationalityQuerySchema,
} from '../../contract/schemas/certificate-profiles.ts';
import { PROFILE_LIST_LIMIT } from '../../contract/schemas/common.ts';
import type { AppDeps } from '../app-deps.ts';
import { changesNothing, updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND, canSeeAccount } from '../authorization/account-reach.ts';
import { pageAndFilters } from '../db/list-page.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import { type ResourceKind, versionedResource } from '../resources/versioned-resource.ts';
import {
  assertMayManageProfiles,
  assertMayReadProfiles,
  assertMayReadTemplates,
  assertProfileAccess,
} from './access.ts';
import {
  DEFAULT_SORT,
  deleteProfile,
  findReachableProfile,
  insertProfile,
  listEnrollmentMethods,
  listKeystoreTypes,
  listProfiles,
  PROFILE_NAME_CONSTRAINT,
  updateProfile,
} from './repository.ts';
import { assertProfileNameFree, normalizePolicy, policyFields, profileNameInUse } from './rules.ts';

const profileKind: ResourceKind<{ id: string }, CertificateProfile> = {
  label: 'Certificate profile',
  resourceType: 'CERTIFICATE_PROFILE',
  find: async (db, principal, { id }, lock) => {
    const profile = await findReachableProfile(db, principal, id, lock);
    return profile && { row: profile, accountId: profile.account_id };
  },
  authorize: (principal, _found, access) => assertProfileAccess(principal, access),
};

/** A profile holds no personal data: the trail keeps the values of every field it changes. */
const DISCLOSED_FIELDS = (fields: Record<string, unknown>) => Object.keys(fields);

/** The profile as the trail compares it: its name, description and policy field by field. */
function auditedFields(values: { name: string; description: string; policy: CertificateProfile['policy'] }) {
  return { name: values.name, description: values.description, ...policyFields(values.policy) };
}

function asTemplate(profile: CertificateProfile): CertificateTemplate {
  return {
    id: profile.id,
    name: profile.name,
    description: profile.description,
    cert_type: profile.cert_type,
    account_id: profile.account_id,
    account_name: profile.account_name,
    policy: profile.policy,
  };
}

/** The 404 of an account out of reach, checked before the permission as for one object. */
async function assertAccountInReach(db: AppDeps['db'], principal: Principal, accountId: string) {
  if (!(await canSeeAccount(db, principal, accountId))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
}

/**
 * Certificate profiles and the enrollment reference data, on the certificate authority's base path
 * (/certificate-authority/api/v1; decision 019 "Profiles and reference data").
 */
export function certificateProfileRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  const profiles = versionedResource(deps, profileKind);
  const profileParams = validateParams(certificateProfileIdParamsSchema);

  app.get(
    '/profile',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        'The certificate profiles of the accounts the caller reaches (view or manage profile), a page at a time (up to 99999999); filtered by name and account, sortable by name, account, validity and updated; an account filter out of reach is 404.',
      success: { status: 200, description: 'Profiles', schema: certificateProfileListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(certificateProfileListQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { page, filters } = pageAndFilters(c.req.valid('query'), DEFAULT_SORT);
      if (filters.account_id !== undefined) await assertAccountInReach(db, principal, filters.account_id);
      assertMayReadProfiles(principal);
      const list: CertificateProfileList = await listProfiles(db, principal, filters, page);
      return c.json(list);
    },
  );

  app.post(
    '/profile',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        'Creates a certificate profile of an account the caller reaches (manage profile); names are unique per account whatever the case; Location names it.',
      success: { status: 201, description: 'Profile created', schema: certificateProfileSchema, etag: true },
      failures: [400, 403, 404, 409, 413, 415],
    }),
    authenticated,
    validateJson(certificateProfileCreateSchema),
    (c) => {
      const principal = c.var.principal;
      const body = c.req.valid('json');
      const policy = normalizePolicy(body.policy);
      return profiles.create(c, {
        authorizeParent: async (trx) => {
          await assertAccountInReach(trx, principal, body.account_id);
          assertMayManageProfiles(principal);
          return body.account_id;
        },
        insert: async (trx, now) => {
          const scope = { accountId: body.account_id, name: body.name };
          await assertProfileNameFree(trx, scope);
          const id = await insertProfile(
            trx,
            { ...scope, description: body.description, policy, createdBy: principal.userId },
            now,
          ).catch((error: unknown) => {
            // A profile of the same name created at the same moment.
            throw isUniqueViolation(error, PROFILE_NAME_CONSTRAINT) ? profileNameInUse() : error;
          });
          const created = await findReachableProfile(trx, principal, id, false);
          if (!created) throw new Error('A profile just created is out of its creator’s reach.');
          return created;
        },
        describe: (row) => ({ name: row.name, account_id: row.account_id, policy: row.policy }),
        location: (row) => apiPaths.certificateProfiles.byId(row.id),
      });
    },
  );

  app.get(
    '/profile/:id',
    describeOperation({
      tag: 'Certificate profiles',
      summary: 'A certificate profile the caller reaches (view or manage profile); ETag is its version.',
      success: { status: 200, description: 'Profile', schema: certificateProfileSchema, etag: true },
      failures: [400, 403, 404],
    }),
    authenticated,
    profileParams,
    (c) => profiles.read(c, c.req.valid('param')),
  );

  app.put(
    '/profile/:id',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        "Replaces a certificate profile's name, description and policy (manage profile); If-Match is required.",
      success: { status: 204, description: 'Profile changed' },
      failures: [400, 403, 404, 409, 413, 415],
      ifMatch: { required: true, current: certificateProfileSchema },
    }),
    authenticated,
    profileParams,
    validateJson(certificateProfileUpdateSchema),
    (c) => {
      const body = c.req.valid('json');
      return profiles.change(c, c.req.valid('param'), {
        precondition: 'required',
        apply: async (trx, { row }, now) => {
          const after = {
            name: body.name,
            description: body.description,
            policy: normalizePolicy(body.policy),
          };
          await assertProfileNameFree(trx, { accountId: row.account_id, name: after.name, exceptId: row.id });
          const afterFields = auditedFields(after);
          const details = updateDetails(auditedFields(row), afterFields, DISCLOSED_FIELDS(afterFields));
          if (changesNothing(details)) return null;
          await updateProfile(trx, row.id, after, now).catch((error: unknown) => {
            throw isUniqueViolation(error, PROFILE_NAME_CONSTRAINT) ? profileNameInUse() : error;
          });
          return { action: 'UPDATE', details };
        },
      });
    },
  );

  // Certificates issued under a profile keep its name (`certificates.profile_name`) after it is gone.
  app.delete(
    '/profile/:id',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        'Deletes a certificate profile (manage profile); certificates issued under it keep its name. If-Match is honoured when sent.',
      success: { status: 204, description: 'Profile deleted' },
      failures: [400, 403, 404],
      ifMatch: { required: false, current: certificateProfileSchema },
    }),
    authenticated,
    profileParams,
    (c) =>
      profiles.change(c, c.req.valid('param'), {
        precondition: 'honoured',
        apply: async (trx, { row }) => {
          await deleteProfile(trx, row.id);
          return { action: 'DELETE', details: { name: row.name, account_id: row.account_id } };
        },
      }),
  );

  app.get(
    '/template',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        'The profiles the caller reaches offered as templates of cert_type end_entity (view template or read profiles), optionally of one account.',
      success: { status: 200, description: 'Templates', schema: certificateTemplateListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    validateQuery(certificateTemplateQuerySchema),
    async (c) => {
      const principal = c.var.principal;
      const { limit = PROFILE_LIST_LIMIT, offset = 0, after, account_id } = c.req.valid('query');
      if (account_id !== undefined) await assertAccountInReach(db, principal, account_id);
      assertMayReadTemplates(principal);
      const { items, ...total } = await listProfiles(
        db,
        principal,
        account_id === undefined ? {} : { account_id },
        {
          limit,
          offset,
          after,
          sort: DEFAULT_SORT,
        },
      );
      const list: CertificateTemplateList = { items: items.map(asTemplate), ...total };
      return c.json(list);
    },
  );

  // Reference data: whoever is signed in reads it (enrollment needs it before any permission).
  app.get(
    '/enrollment-method',
    describeOperation({
      tag: 'Reference',
      summary: 'The enrollment methods (DTA, DDC), from the database; any signed-in user.',
      success: { status: 200, description: 'Enrollment methods', schema: enrollmentMethodListSchema },
      failures: [],
    }),
    authenticated,
    async (c) => {
      const items = await listEnrollmentMethods(db);
      const list: EnrollmentMethodList = { items, total: items.length };
      return c.json(list);
    },
  );

  app.get(
    '/keystore-type',
    describeOperation({
      tag: 'Reference',
      summary:
        'The keystore types a trust agent reports, with their category (HWToken, SWToken), source and keystore location, from the database; any signed-in user.',
      success: { status: 200, description: 'Keystore types', schema: keystoreTypeListSchema },
      failures: [],
    }),
    authenticated,
    async (c) => {
      const items = await listKeystoreTypes(db);
      const list: KeystoreTypeList = { items, total: items.length };
      return c.json(list);
    },
  );

  app.get(
    '/nationalities',
    describeOperation({
      tag: 'Reference',
      summary:
        'Nationalities: the countries the platform deals with, by ISO 3166 code, named in the language asked for (en_US unless `locale` says otherwise); any signed-in user.',
      success: { status: 200, description: 'Nationalities', schema: nationalityListSchema },
      failures: [400],
    }),
    authenticated,
    validateQuery(nationalityQuerySchema),
    (c) => {
      const names = new Intl.DisplayNames([intlLocaleOf(c.req.valid('query').locale), 'en'], {
        type: 'region',
        fallback: 'code',
      });
      const items = SELECTABLE_COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code }));
      const list: NationalityList = { items, total: items.length };
      return c.json(list);
    },
  );

  return app;
}

/**
 * One account's templates and profiles on the console API (/account/ui-api/v1; account
 * administration §7): GET account/{id}/template and account/{id}/profile, every one of them (profile
 * lists use the limit 99999999, overview §9). An account out of reach is 404.
 */
export function accountProfileRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  const authenticated = requireAuth(deps);
  const accountParams = validateParams(accountIdParamsSchema);

  app.get(
    '/account/:id/template',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        "An account's templates, all of them (view template or read profiles); an account out of reach is 404.",
      success: { status: 200, description: 'Templates', schema: certificateTemplateListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    accountParams,
    async (c) => {
      const principal = c.var.principal;
      const { id } = c.req.valid('param');
      await assertAccountInReach(db, principal, id);
      assertMayReadTemplates(principal);
      const page = await listProfiles(
        db,
        principal,
        { account_id: id },
        {
          limit: PROFILE_LIST_LIMIT,
          offset: 0,
          sort: DEFAULT_SORT,
        },
      );
      const list: CertificateTemplateList = { items: page.items.map(asTemplate), total: page.total };
      return c.json(list);
    },
  );

  app.get(
    '/account/:id/profile',
    describeOperation({
      tag: 'Certificate profiles',
      summary:
        "An account's certificate profiles, all of them (view or manage profile); an account out of reach is 404.",
      success: { status: 200, description: 'Profiles', schema: certificateProfileListSchema },
      failures: [400, 403, 404],
    }),
    authenticated,
    accountParams,
    async (c) => {
      const principal = c.var.principal;
      const { id } = c.req.valid('param');
      await assertAccountInReach(db, principal, id);
      assertMayReadProfiles(principal);
      const list: CertificateProfileList = await listProfiles(
        db,
        principal,
        { account_id: id },
        {
          limit: PROFILE_LIST_LIMIT,
          offset: 0,
          sort: DEFAULT_SORT,
        },
      );
      return c.json(list);
    },
  );

  return app;
}
