import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { PUBLIC_URL } from '../mail/helpers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { send } from './requests.ts';

describe('the client-authentication sign-in address', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp({ config: { publicUrl: PUBLIC_URL } });
  });
  afterAll(() => harness.close());

  it("answers anyone the console's sign-in page on the public address, whatever Host the request names", async () => {
    const response = await send(harness, 'GET', apiPaths.identity.clientAuthLoginUrl, {
      headers: { Host: 'attacker.example' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${PUBLIC_URL}/account/login` });
  });
});
