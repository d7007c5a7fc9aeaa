// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Menu } from '../../../src/components/ui/menu.tsx';

const sections = [
  {
    id: 'theme',
    entries: [
      { value: 'light', label: 'Light' },
      { value: 'dark', label: 'Dark', checked: true },
    ],
  },
];

describe('a menu whose code loads on first use', () => {
  beforeEach(() => {
    // Ark UI positions menus with floating-ui, which watches sizes; jsdom has no layout to watch.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('stands in as a named menu button, opens from the keyboard and gives focus back on Escape', async () => {
    const onSelect = vi.fn();
    render(<Menu trigger="Theme" triggerLabel="Theme: Dark" sections={sections} onSelect={onSelect} />);
    const standIn = screen.getByRole('button', { name: 'Theme: Dark' });
    expect(standIn.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();

    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(standIn);
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('menuitem', { name: /Light/ })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true));

    await user.keyboard('{Escape}');
    const trigger = screen.getByRole('button', { name: 'Theme: Dark' });
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('is the real menu button at once once the code is here, and chooses an entry', async () => {
    const onSelect = vi.fn();
    // The first test brought the code: no stand-in now.
    render(<Menu trigger="Theme" sections={sections} onSelect={onSelect} />);
    const trigger = screen.getByRole('button', { name: 'Theme' });
    expect(trigger.getAttribute('data-scope')).toBe('menu');
    const user = userEvent.setup();
    await user.click(trigger);
    await screen.findByRole('menuitem', { name: /Light/ });
    // The menu takes the focus a moment after it opens; keys pressed before would go to the trigger.
    await waitFor(() => expect(screen.getByRole('menu').contains(document.activeElement)).toBe(true));
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSelect).toHaveBeenCalledWith('light'));
  });
});
