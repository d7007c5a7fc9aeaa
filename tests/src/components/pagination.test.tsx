// @vitest-environment jsdom
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Pagination, pageItems } from '../../../src/components/ui/pagination.tsx';
import { i18n } from '../../../src/lib/i18n.ts';
import { activateEnglish } from '../support.tsx';

/** The bar as text: page numbers, and … for an ellipsis. */
const bar = (page: number, totalPages: number) =>
  pageItems(page, totalPages)
    .map((item) => (item.type === 'page' ? String(item.value) : '…'))
    .join(' ');

describe('the pages a bar shows', () => {
  it.each([
    [1, 1, '1'],
    [3, 7, '1 2 3 4 5 6 7'],
    [1, 8, '1 2 3 4 5 … 8'],
    [4, 8, '1 2 3 4 5 … 8'],
    [5, 8, '1 … 4 5 6 7 8'],
    [1, 20, '1 2 3 4 5 … 20'],
    [5, 20, '1 … 4 5 6 … 20'],
    [10, 20, '1 … 9 10 11 … 20'],
    [17, 20, '1 … 16 17 18 19 20'],
    [20, 20, '1 … 16 17 18 19 20'],
  ])('page %i of %i: %s', (page, totalPages, expected) => {
    expect(bar(page, totalPages)).toBe(expected);
  });
});

describe('Pagination', () => {
  beforeAll(activateEnglish);
  afterEach(cleanup);

  const renderBar = (page: number, onPageChange = vi.fn()) => {
    render(
      <I18nProvider i18n={i18n}>
        <Pagination count={95} pageSize={10} page={page} onPageChange={onPageChange} />
      </I18nProvider>,
    );
    return onPageChange;
  };

  it('is a labelled navigation that marks the current page and names each page', () => {
    renderBar(1);
    const nav = screen.getByRole('navigation', { name: 'Pages' });
    expect(nav).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 1 of 10' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Page 2 of 10' }).getAttribute('aria-current')).toBeNull();
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('moves by the steps and to a chosen page, and not to the page already shown', () => {
    const onPageChange = renderBar(10);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 8 of 10' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 10 of 10' }));
    expect(onPageChange.mock.calls).toEqual([[9], [8]]);
  });

  it('draws nothing when everything fits on one page', () => {
    render(
      <I18nProvider i18n={i18n}>
        <Pagination count={10} pageSize={10} page={1} onPageChange={vi.fn()} />
      </I18nProvider>,
    );
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});

function renderPager(count: number, countIsLowerBound: boolean, page = 1) {
  return render(
    <I18nProvider i18n={i18n}>
      <Pagination
        count={count}
        countIsLowerBound={countIsLowerBound}
        pageSize={20}
        page={page}
        onPageChange={() => undefined}
      />
    </I18nProvider>,
  );
}

describe('the pager of a list whose total is a lower bound', () => {
  it('offers the page past the bound, says more pages follow and keeps Next enabled', () => {
    renderPager(200, true, 1);
    expect(screen.getByRole('button', { name: 'Page 11 of more than 10' })).toBeTruthy();
    expect(screen.getByTitle('More pages follow')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows an exact total as before', () => {
    renderPager(200, false, 10);
    expect(screen.getByRole('button', { name: 'Page 10 of 10' })).toBeTruthy();
    expect(screen.queryByTitle('More pages follow')).toBeNull();
  });
});
