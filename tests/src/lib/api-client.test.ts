import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearAccessToken, getAccessToken, setAccessToken } from '../../../src/lib/access-token.ts';
import { ApiError, apiRequest, onUnauthorized } from '../../../src/lib/api-client.ts';
import { apiError, json, mockApi } from '../support.tsx';

const PATH = '/account/ui-api/v1/user';

function handlers(renewTo: string | null) {
  const lost = vi.fn();
  const renew = vi.fn(async () => {
    if (renewTo === null) return false;
    setAccessToken(renewTo, Date.now() + 60_000);
    return true;
  });
  onUnauthorized({ renew, lost });
  return { renew, lost };
}

afterEach(() => {
  onUnauthorized(null);
  clearAccessToken();
  vi.unstubAllGlobals();
});

describe('a 401 on a request that carried the access token', () => {
  it('renews the session and sends the request once more with the new token', async () => {
    setAccessToken('expired', Date.now());
    const tokens: (string | null)[] = [];
    mockApi({
      [`PUT ${PATH}`]: () => {
        const call = tokens.length;
        tokens.push(call === 0 ? 'expired' : getAccessToken());
        return call === 0 ? apiError(401, 'Token expired.') : json({ done: true });
      },
    });
    const { renew, lost } = handlers('fresh');

    await expect(apiRequest('PUT', PATH, { body: { a: 1 } })).resolves.toBeUndefined();
    expect(renew).toHaveBeenCalledTimes(1);
    expect(lost).not.toHaveBeenCalled();
    expect(tokens).toEqual(['expired', 'fresh']);
  });

  it('ends the session when no new token comes back', async () => {
    setAccessToken('revoked', Date.now() + 60_000);
    const api = mockApi({ [`GET ${PATH}`]: () => apiError(401, 'Session ended.') });
    const { lost } = handlers(null);

    await expect(apiRequest('GET', PATH)).rejects.toMatchObject({ status: 401 });
    expect(lost).toHaveBeenCalledTimes(1);
    expect(api.calls).toHaveLength(1);
  });

  it('ends the session when the new token is refused too, without a third try', async () => {
    setAccessToken('old', Date.now());
    const api = mockApi({ [`GET ${PATH}`]: () => apiError(401, 'Refused.') });
    const { renew, lost } = handlers('new');

    await expect(apiRequest('GET', PATH)).rejects.toBeInstanceOf(ApiError);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(lost).toHaveBeenCalledTimes(1);
    expect(api.calls.map((call) => call.headers.get('Authorization'))).toEqual(['Bearer old', 'Bearer new']);
  });

  it('leaves a 401 of a call that expects one to its caller', async () => {
    setAccessToken('any', Date.now());
    mockApi({ [`GET ${PATH}`]: () => apiError(401, 'No.') });
    const { renew, lost } = handlers('other');

    await expect(apiRequest('GET', PATH, { sessionCheck: false })).rejects.toMatchObject({ status: 401 });
    expect(renew).not.toHaveBeenCalled();
    expect(lost).not.toHaveBeenCalled();
  });

  it('does not renew for a request sent without a token', async () => {
    mockApi({ [`GET ${PATH}`]: () => apiError(401, 'Sign in.') });
    const { renew, lost } = handlers('other');

    await expect(apiRequest('GET', PATH)).rejects.toMatchObject({ status: 401 });
    expect(renew).not.toHaveBeenCalled();
    expect(lost).not.toHaveBeenCalled();
  });
});
