import { apiPaths } from '../../../contract/paths.ts';
import type {
  EnrollmentCertificateRequest,
  EnrollmentCreate,
  EnrollmentCreated,
} from '../../../contract/schemas/enrollments.ts';
import { PUBLIC_URL } from '../mail/helpers.ts';
import { call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/** A test app whose links are built on the mail suites' public address. */
export function createEnrollmentTestApp(options: Parameters<typeof createTestApp>[0] = {}) {
  return createTestApp({ ...options, config: { publicUrl: PUBLIC_URL, ...options.config } });
}

/** POST enrollment; fails the test unless it answers 201. Answers the enrollment, its link and code. */
export async function createEnrollment(
  harness: TestApp,
  token: string,
  body: EnrollmentCreate,
): Promise<EnrollmentCreated & { code: string }> {
  const response = await call(harness, 'POST', apiPaths.enrollments.create, { token, body });
  if (response.status !== 201)
    throw new Error(`Create answered ${response.status}: ${await response.text()}`);
  const created = (await response.json()) as EnrollmentCreated;
  return { ...created, code: codeOf(created.enrollment_url) };
}

/** The code of an enrollment link `…/account/enrollment/{id}/{code}`. */
export function codeOf(url: string): string {
  const code = new URL(url).pathname.split('/').at(-1);
  if (!code) throw new Error(`No code in ${url}`);
  return code;
}

/** A public call of the enrollee, from `address` (the harness trusts X-Forwarded-For). */
export function publicCall(
  harness: TestApp,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { body?: unknown; address?: string } = {},
): Promise<Response> {
  return call(harness, method, path, {
    body: options.body,
    headers: { 'X-Forwarded-For': options.address ?? '203.0.113.10' },
  });
}

/** The certificate request the enrollment page sends (overview §3). */
export function certificateRequest(csr: string, overrides: Partial<EnrollmentCertificateRequest> = {}) {
  return {
    name: 'Ada Lovelace 3f9a',
    end_date: '2027-11-24',
    csr,
    common_name: 'Ada Lovelace',
    enrollment_method: 'DTA',
    keystore_type: 'DTM_SOFTWARE',
    ...overrides,
  };
}
