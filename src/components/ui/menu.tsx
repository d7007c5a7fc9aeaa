import { Menu as ArkMenu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import type { ReactNode } from 'react';

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

interface MenuProps {
  trigger: ReactNode;
  /** The trigger's accessible name when its visible content is not enough. */
  triggerLabel?: string;
  sections: readonly MenuSection[];
  onSelect: (value: string) => void;
}

/** A menu button (WAI-ARIA menu pattern from Ark UI): arrow keys, typeahead, Escape, focus return. */
export function Menu({ trigger, triggerLabel, sections, onSelect }: MenuProps) {
  return (
    <ArkMenu.Root onSelect={(details) => onSelect(details.value)} positioning={{ placement: 'bottom-end' }}>
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
    </ArkMenu.Root>
  );
}
