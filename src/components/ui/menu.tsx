import { type KeyboardEvent, type ReactNode, useState } from 'react';

export interface MenuEntry {
  value: string;
  label: ReactNode;
  /** Marks the current choice in a list of options (language, theme, account). */
  checked?: boolean;
  lang?: string;
  /** Shown but not chosen; `description` says why. */
  disabled?: boolean;
  /** A second line under the label (why the entry is disabled). */
  description?: ReactNode;
}

export interface MenuSection {
  id: string;
  label?: ReactNode;
  entries: readonly MenuEntry[];
}

export interface MenuProps {
  trigger: ReactNode;
  /** The trigger's accessible name when its visible content is not enough. */
  triggerLabel?: string;
  sections: readonly MenuSection[];
  onSelect: (value: string) => void;
}

type MenuButtonModule = typeof import('./menu-button.tsx');
let menuButtonModule: Promise<MenuButtonModule> | undefined;
/** Set once the code is here: menus drawn after that draw the real button at once. */
let loadedMenuButton: MenuButtonModule['MenuButton'] | undefined;
/** The menus' code (Ark UI's menu and positioning, about 19 KB gzip), fetched once for every menu. */
const loadMenuButton = () => {
  menuButtonModule ??= import('./menu-button.tsx').then((module) => {
    loadedMenuButton = module.MenuButton;
    return module;
  });
  return menuButtonModule;
};

/** Keys that open a menu button from its trigger (WAI-ARIA menu button pattern). */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp']);

/**
 * A menu button whose code loads when the user first comes near one (pointer over it, focus on it)
 * rather than with the screen. Until it is wanted a plain button stands in, named and marked
 * `aria-haspopup` as the real trigger is, so it reads and tabs the same; a press or an opening key
 * on it puts the real menu button in its place, open, as soon as the code is there. The stand-in
 * is replaced only on that press, never under a pointer on its way to click it.
 */
export function Menu(props: MenuProps) {
  const [MenuButton, setMenuButton] = useState(() => loadedMenuButton);
  const [opening, setOpening] = useState(false);

  if (MenuButton) return <MenuButton {...props} openOnArrival={opening} />;
  const open = () => {
    setOpening(true);
    void loadMenuButton().then((module) => setMenuButton(() => module.MenuButton));
  };
  return (
    <button
      type="button"
      className="menu__trigger"
      aria-haspopup="menu"
      aria-expanded={false}
      aria-label={props.triggerLabel}
      onPointerEnter={() => void loadMenuButton()}
      onFocus={() => void loadMenuButton()}
      onClick={open}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        open();
      }}
    >
      {props.trigger}
    </button>
  );
}
