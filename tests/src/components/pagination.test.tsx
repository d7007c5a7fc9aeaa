// @vitest-environment jsdom

import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Pagination } from '../../../src/components/ui/pagination.tsx';
import { activateEnglish } from '../support.tsx';

beforeAll(activateEnglish);

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
