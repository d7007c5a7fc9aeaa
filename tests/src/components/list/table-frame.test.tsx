// @vitest-environment jsdom

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TableFrame } from '../../../../src/components/list/table-frame.tsx';
import { TruncatedText } from '../../../../src/components/truncated-text.tsx';

const LONG_NAME = 'W'.repeat(256);

describe('TableFrame', () => {
  it('is a region named for its table that the keyboard reaches', async () => {
    render(
      <TableFrame label="Accounts table">
        <table>
          <tbody>
            <tr>
              <th scope="row">Harbour</th>
            </tr>
          </tbody>
        </table>
      </TableFrame>,
    );
    const frame = screen.getByRole('region', { name: 'Accounts table' });
    expect(frame.contains(screen.getByRole('table'))).toBe(true);
    await userEvent.tab();
    expect(document.activeElement).toBe(frame);
  });
});

describe('TruncatedText', () => {
  it('keeps the whole value in its text and its title', () => {
    render(
      <a href="/accounts/1">
        <TruncatedText text={LONG_NAME} />
      </a>,
    );
    const link = screen.getByRole('link', { name: LONG_NAME });
    expect(screen.getByTitle(LONG_NAME).textContent).toBe(LONG_NAME);
    expect(link.contains(screen.getByTitle(LONG_NAME))).toBe(true);
  });

  it('shows nothing for a value not given', () => {
    const { container } = render(<TruncatedText text="" />);
    expect(container.childNodes).toHaveLength(0);
  });
});
