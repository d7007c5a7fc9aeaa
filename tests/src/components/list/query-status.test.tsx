// @vitest-environment jsdom

import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { onlineManager, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryStatus } from '../../../../src/components/list/query-status.tsx';
import { ApiError } from '../../../../src/lib/api-client.ts';
import { activateEnglish, testQueryClient } from '../../support.tsx';

beforeAll(activateEnglish);
afterEach(() => onlineManager.setOnline(true));

/** A list of names behind QueryStatus, fed by `load`. */
function Names({ load }: { load: () => Promise<string[]> }) {
  const query = useQuery({ queryKey: ['names'], queryFn: load });
  return (
    <QueryStatus
      query={query}
      pendingText="Loading names…"
      empty={{ when: (names) => names.length === 0, content: <p>No names yet.</p> }}
    >
      {(names) => (
        <ul aria-label="Names">
          {names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </QueryStatus>
  );
}

function renderList(load: () => Promise<string[]>) {
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={testQueryClient()}>
        <Names load={load} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('QueryStatus', () => {
  it('says it is loading, then shows the data', async () => {
    renderList(() => Promise.resolve(['Ada']));
    expect(screen.getByRole('status').textContent).toBe('Loading names…');
    expect(await screen.findByRole('list', { name: 'Names' })).toBeTruthy();
  });

  it('says what stands in for an empty answer', async () => {
    renderList(() => Promise.resolve([]));
    expect(await screen.findByText('No names yet.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows a failure in our words with a retry that asks again', async () => {
    const load = vi
      .fn<() => Promise<string[]>>()
      .mockRejectedValueOnce(new ApiError(500, "Cannot read property 'x' of null"))
      .mockResolvedValue(['Grace']);
    renderList(load);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Something went wrong on the server. Try again later.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem')).toHaveProperty('textContent', 'Grace');
  });

  it('says a list never loaded shows once back online, instead of loading for ever', () => {
    onlineManager.setOnline(false);
    renderList(() => Promise.resolve(['Ada']));
    expect(screen.getByRole('status').textContent).toBe(
      'This was not loaded before the connection was lost. It shows once you are back online.',
    );
  });
});
