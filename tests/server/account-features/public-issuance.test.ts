import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { createCsr, insertTestProfile, TEST_POLICY, withCertificateAuthority } from '../ca/helpers.ts';
import {
  certificateRequest,
  createEnrollment,
  createEnrollmentTestApp,
  publicCall,
} from '../enrollments/helpers.ts';
import { errorOf } from '../errors.ts';
import { signIn } from '../identity/requests.ts';
import { call } from '../organizations/requests.ts';
import type { TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';

/**
 * The public issuance feature off (decision 022 §4): the account's enrollment links refuse the
 * enrollee, while its administrators still make enrollments; on again, the links work.
 */

let harness: TestApp;
let token: string;
let systemToken: string;
let accountId: string;
let profileId: string;
let personId: string;

beforeAll(async () => {
  harness = await createEnrollmentTestApp({ config: { trustProxy: true } });
  await withCertificateAuthority(harness.deps);
  const admin = await harness.createUser({ accessScope: 'account' });
  accountId = admin.accountId;
  token = (await signIn(harness, admin)).accessToken;
  systemToken = (await signIn(harness, await harness.createUser({ accessScope: 'system' }))).accessToken;
  profileId = (
    await insertTestProfile(harness, accountId, {
      policy: { ...TEST_POLICY, key_types: { rsa: [], ec: ['P-256'] } },
    })
  ).id;
  personId = await insertTestUser(harness, {
    accountId,
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
});
afterAll(() => harness.close());

async function setPublicIssuance(enabled: boolean) {
  const path = apiPaths.accountFeatures.byAccount(accountId);
  const read = await call(harness, 'GET', path, { token: systemToken });
  expect(read.status).toBe(200);
  const response = await call(harness, 'PUT', path, {
    token: systemToken,
    body: [{ feature_id: 'public_issuance', enabled, end_date: null }],
    headers: { 'If-Match': read.headers.get('ETag') ?? '' },
  });
  expect(response.status).toBe(204);
}

function enroll() {
  return createEnrollment(harness, token, {
    account_id: accountId,
    profile_id: profileId,
    seat: { kind: 'user', user_id: personId },
  });
}

describe('public issuance off', () => {
  it('refuses the links with 403 publicIssuanceDisabled; administrators still enroll; on again, the link issues', async () => {
    await setPublicIssuance(false);
    // An administrator's route: the enrollment is made, its link sent.
    const { enrollment, code } = await enroll();
    const opened = await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, code));
    expect(opened.status).toBe(403);
    expect(await errorOf(opened)).toMatchObject({ status: 403, code: 'publicIssuanceDisabled' });
    const { pem } = await createCsr('EC P-256');
    const path = apiPaths.enrollments.certificate(enrollment.id, code);
    const issue = await publicCall(harness, 'POST', path, { body: certificateRequest(pem) });
    expect(issue.status).toBe(403);
    expect((await errorOf(issue)).code).toBe('publicIssuanceDisabled');
    expect((await publicCall(harness, 'PUT', apiPaths.enrollments.redeem(enrollment.id, code))).status).toBe(
      403,
    );
    // The administrators' view of the enrollment is unchanged: still pending.
    const read = await call(harness, 'GET', apiPaths.enrollments.byId(enrollment.id), { token });
    expect(read.status).toBe(200);

    await setPublicIssuance(true);
    expect((await publicCall(harness, 'GET', apiPaths.enrollments.byCode(enrollment.id, code))).status).toBe(
      200,
    );
    expect((await publicCall(harness, 'POST', path, { body: certificateRequest(pem) })).status).toBe(201);
  });

  it('still answers 404 for a wrong code, before saying anything of the account', async () => {
    await setPublicIssuance(false);
    const { enrollment } = await enroll();
    const wrong = await publicCall(
      harness,
      'GET',
      apiPaths.enrollments.byCode(enrollment.id, 'A'.repeat(32)),
      {
        address: '203.0.113.77',
      },
    );
    expect(wrong.status).toBe(404);
    await setPublicIssuance(true);
  });
});
