// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { onlineManager, QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { useUpdateOrganization } from '../../../src/features/organizations/mutations.ts';
import { organizationKeys } from '../../../src/features/organizations/queries.ts';
import { ApiError } from '../../../src/lib/api-client.ts';
import { profileQueryOptions } from '../../../src/lib/current-user.ts';
import { Outbox, OutboxProvider } from '../../../src/lib/offline/outbox-client.ts';
import {
  apiQueueableRequest,
  isQueued,
  newIdempotencyKey,
  StorageFullError,
} from '../../../src/lib/offline/queueable-request.ts';
import { createQueryClient, screenDataOf } from '../../../src/lib/query-client.ts';
import { organizationFixture, profileFixture } from '../fixtures.ts';
import { activateEnglish, apiError, json, loadStaleAfter, mockApi, outboxBase } from '../support.tsx';
import { stubServiceWorker } from './offline/offline-support.ts';

const ORGANIZATION = organizationFixture({
  id: 'o1',
  account_id: 'a1',
  phone: '',
  contacts_count: 0,
  version: 3,
});
const FIELDS = {
  name: 'Acme Trust AG',
  address: 'Hauptstraße 1',
  address2: '',
  city: 'Berlin',
  state: '',
  zip_code: '10115',
  country: 'DE',
  phone: '',
};
const PATH = apiPaths.organizations.byId('o1');
/** The page's outbox, whose worker may keep the user's changes while the page holds their storage key. */
const outbox = new Outbox();
const QUEUE = {
  idempotencyKey: '6f1c2b1e-3d4a-4c5b-8e9f-0a1b2c3d4e5f',
  owner: 'user-1',
  outbox,
  accountId: 'a1',
  summary: 'Edit organization Acme & Co',
  resource: PATH,
  base: { ...FIELDS, name: 'Acme Trust GmbH', city: 'München' },
};

let restoreWorker = () => {};
beforeEach(() => {
  activateEnglish();
  // A worker controls this page, which holds a live storage key of the user: the worker may keep their changes.
  restoreWorker = stubServiceWorker([]);
  outbox.keepChangesOf('user-1');
});
afterEach(() => {
  onlineManager.setOnline(true);
  outbox.keepChangesOf(null);
  restoreWorker();
});

describe('queueable requests', () => {
  it('send the action key, the loaded version and who and what the change is for', async () => {
    const { calls } = mockApi({ [`PUT ${PATH}`]: () => new Response(null, { status: 204 }) });
    await apiQueueableRequest('PUT', PATH, { body: FIELDS, ifMatch: 3, queue: QUEUE });
    const headers = calls[0]?.headers;
    expect(headers?.get('Idempotency-Key')).toBe(QUEUE.idempotencyKey);
    expect(headers?.get('If-Match')).toBe('"3"');
    expect(headers?.get('X-Outbox-Owner')).toBe('user-1');
    expect(headers?.get('X-Outbox-Account')).toBe('a1');
    expect(decodeURIComponent(headers?.get('X-Outbox-Summary') ?? '')).toBe('Edit organization Acme & Co');
    expect(headers?.get('X-Outbox-Resource')).toBe(PATH);
    // URI-encoded JSON, so a header carries any language.
    expect(headers?.get('X-Outbox-Base')).not.toContain('ü');
    expect(outboxBase(headers)).toEqual(QUEUE.base);
  });

  it('go as plain changes, without the base of the object, when no worker controls the page', async () => {
    restoreWorker();
    const { calls } = mockApi({ [`PUT ${PATH}`]: () => new Response(null, { status: 204 }) });
    await apiQueueableRequest('PUT', PATH, { body: FIELDS, ifMatch: 3, queue: QUEUE });
    const headers = calls[0]?.headers;
    expect(headers?.get('Idempotency-Key')).toBe(QUEUE.idempotencyKey);
    expect([...(headers?.keys() ?? [])].filter((name) => name.startsWith('x-outbox'))).toEqual([]);
  });

  it('go as plain changes, with their key and version, while the page holds no storage key', async () => {
    outbox.keepChangesOf(null);
    const { calls } = mockApi({ [`PUT ${PATH}`]: () => new Response(null, { status: 204 }) });
    await apiQueueableRequest('PUT', PATH, { body: FIELDS, ifMatch: 3, queue: QUEUE });
    const headers = calls[0]?.headers;
    expect(headers?.get('Idempotency-Key')).toBe(QUEUE.idempotencyKey);
    expect(headers?.get('If-Match')).toBe('"3"');
    expect([...(headers?.keys() ?? [])].filter((name) => name.startsWith('x-outbox'))).toEqual([]);
  });

  it('answer { queued } when the service worker kept the change', async () => {
    mockApi({ [`PUT ${PATH}`]: () => json({ queued: true, outboxId: 'entry-7' }, 202) });
    const result = await apiQueueableRequest('PUT', PATH, { body: FIELDS, ifMatch: 3, queue: QUEUE });
    expect(isQueued(result)).toBe(true);
    expect(result).toEqual({ queued: true, outboxId: 'entry-7' });
  });

  it('say the change was not saved when the browser storage is full', async () => {
    mockApi({ [`PUT ${PATH}`]: () => apiError(507, 'Insufficient Storage') });
    const failure = apiQueueableRequest('PUT', PATH, { body: FIELDS, ifMatch: 3, queue: QUEUE });
    await expect(failure).rejects.toBeInstanceOf(StorageFullError);
    await expect(failure).rejects.toMatchObject({
      status: 507,
      message: expect.stringContaining('not saved'),
    });
  });

  it('keep the server’s own answers, a 412 included', async () => {
    mockApi({ [`PUT ${PATH}`]: () => apiError(412, 'The organization was changed by someone else.') });
    await expect(
      apiQueueableRequest('PUT', PATH, { body: FIELDS, ifMatch: 3, queue: QUEUE }),
    ).rejects.toEqual(new ApiError(412, 'The organization was changed by someone else.'));
  });
});

function wrapper(queryClient: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <OutboxProvider value={outbox}>{children}</OutboxProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}

describe('queueable organization edit', () => {
  it('sends the same action key when the mutation is retried', async () => {
    let attempts = 0;
    const { calls } = mockApi({
      [`PUT ${PATH}`]: () => {
        attempts += 1;
        return attempts === 1 ? apiError(503, 'Busy.') : new Response(null, { status: 204 });
      },
    });
    outbox.keepChangesOf(profileFixture().id);
    const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: 1, retryDelay: 0 } } });
    queryClient.setQueryData(profileQueryOptions().queryKey, profileFixture());
    const { result } = renderHook(() => useUpdateOrganization(ORGANIZATION), {
      wrapper: wrapper(queryClient),
    });
    const idempotencyKey = newIdempotencyKey();
    await act(() =>
      result.current.mutateAsync({ fields: FIELDS, version: 3, base: QUEUE.base, idempotencyKey }),
    );
    const sent = calls.filter((call) => call.method === 'PUT');
    expect(sent).toHaveLength(2);
    expect(sent.map((call) => call.headers.get('Idempotency-Key'))).toEqual([idempotencyKey, idempotencyKey]);
    expect(sent.map((call) => call.headers.get('If-Match'))).toEqual(['"3"', '"3"']);
    expect(sent[0]?.headers.get('X-Outbox-Owner')).toBe(profileFixture().id);
    expect(sent.map((call) => outboxBase(call.headers))).toEqual([QUEUE.base, QUEUE.base]);
  });

  it('shows a queued edit on the cached organization and keeps the time of the data', async () => {
    mockApi({ [`PUT ${PATH}`]: () => json({ queued: true, outboxId: 'entry-1' }, 202) });
    const queryClient = new QueryClient();
    queryClient.setQueryData(profileQueryOptions().queryKey, profileFixture());
    queryClient.setQueryData(organizationKeys.detail('o1'), ORGANIZATION, { updatedAt: 1_000 });
    const { result } = renderHook(() => useUpdateOrganization(ORGANIZATION), {
      wrapper: wrapper(queryClient),
    });
    await act(() =>
      result.current.mutateAsync({
        fields: FIELDS,
        version: 3,
        base: QUEUE.base,
        idempotencyKey: newIdempotencyKey(),
      }),
    );
    const state = queryClient.getQueryState(organizationKeys.detail('o1'));
    expect(state?.data).toMatchObject({ name: 'Acme Trust AG', version: 3 });
    expect(state?.dataUpdatedAt).toBe(1_000);
  });
});

describe('the console query client', () => {
  it('always sends mutations, even offline: the outbox is the only queue', async () => {
    const queryClient = createQueryClient(() => undefined, loadStaleAfter);
    expect(queryClient.getDefaultOptions().mutations?.networkMode).toBe('always');
    onlineManager.setOnline(false);
    const { result } = renderHook(() => useMutation({ mutationFn: () => Promise.resolve('sent') }), {
      wrapper: wrapper(queryClient),
    });
    act(() => result.current.mutate());
    await waitFor(() => expect(result.current.data).toBe('sent'));
  });

  it('answers a screen cached data offline without waiting for the network', async () => {
    const queryClient = createQueryClient(() => undefined, loadStaleAfter);
    queryClient.setQueryData(['cached'], 'kept', { updatedAt: 1 });
    onlineManager.setOnline(false);
    let fetched = false;
    const data = await screenDataOf(queryClient).load({
      queryKey: ['cached'],
      queryFn: () => {
        fetched = true;
        return 'fresh';
      },
    });
    expect(data).toBe('kept');
    expect(fetched).toBe(false);
  });
});
