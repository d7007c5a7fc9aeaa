import { Menu as ArkMenu, useMenu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import { useEffect, useRef } from 'react';
import type { MenuProps } from './menu.tsx';

interface MenuButtonProps extends MenuProps {
  /** The user pressed the stand-in button while this code was on its way (menu.tsx): open at once. */
  openOnArrival: boolean;
}

/**
 * A menu button (WAI-ARIA menu pattern from Ark UI): arrow keys, typeahead, Escape, focus return.
 * Loaded when first wanted (menu.tsx); it takes over from the stand-in where the user left it.
 */
export function MenuButton({ trigger, triggerLabel, sections, onSelect, openOnArrival }: MenuButtonProps) {
  const menu = useMenu({
    onSelect: (details) => onSelect(details.value),
    positioning: { placement: 'bottom-end' },
  });
  // Only on arrival: later renders must not reopen the menu. Opening moves focus into the menu,
  // and closing returns it to this trigger, as a press on the trigger itself would.
  const pendingOpen = useRef(openOnArrival);
  useEffect(() => {
    if (pendingOpen.current) menu.api.setOpen(true);
    pendingOpen.current = false;
  }, [menu.api]);
  return (
    <ArkMenu.RootProvider value={menu}>
      <ArkMenu.Trigger className="menu__trigger" aria-label={triggerLabel}>
        {trigger}
      </ArkMenu.Trigger>
      <Portal>
        <ArkMenu.Positioner>
          <ArkMenu.Content className="menu__content">
            {sections.map((section, index) => (
              <ArkMenu.ItemGroup key={section.id} className="menu__group">
                {index > 0 ? <ArkMenu.Separator className="menu__separator" /> : null}
                {section.label ? (
                  <ArkMenu.ItemGroupLabel className="menu__group-label">
                    {section.label}
                  </ArkMenu.ItemGroupLabel>
                ) : null}
                {section.entries.map((entry) => (
                  <ArkMenu.Item
                    key={entry.value}
                    value={entry.value}
                    className="menu__item"
                    lang={entry.lang}
                    disabled={entry.disabled}
                    aria-current={entry.checked ? 'true' : undefined}
                  >
                    <span className="menu__check" aria-hidden="true">
                      {entry.checked ? '✓' : ''}
                    </span>
                    {entry.description ? (
                      <span className="menu__text">
                        {entry.label}
                        <span className="menu__description">{entry.description}</span>
                      </span>
                    ) : (
                      entry.label
                    )}
                  </ArkMenu.Item>
                ))}
              </ArkMenu.ItemGroup>
            ))}
          </ArkMenu.Content>
        </ArkMenu.Positioner>
      </Portal>
    </ArkMenu.RootProvider>
  );
}
