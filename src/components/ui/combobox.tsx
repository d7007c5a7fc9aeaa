import { Combobox as ArkCombobox, createListCollection } from '@ark-ui/react/combobox';
import { Portal } from '@ark-ui/react/portal';
import { useMemo } from 'react';

export interface ComboboxOption {
  value: string;
  label: string;
}

interface ComboboxProps {
  /** The input's accessible name; shown only to assistive technology, the placeholder shows it too. */
  label: string;
  placeholder?: string;
  /** Label of the open-list button. */
  triggerLabel: string;
  /** What is typed, as it changes; the input itself keeps its text (and clears it on a choice). */
  onInputValueChange: (value: string) => void;
  /** The options for the current input, in the order shown; the caller searches, this only shows. */
  options: readonly ComboboxOption[];
  /** Heading of the options (what they are: recent choices, search results). */
  optionsLabel: string;
  /** The option marked as the current choice. */
  currentValue?: string;
  /** Loading, empty, failed or a hint: shown under the options and announced politely. */
  status?: string;
  /** Announced politely when there is no status, without being shown (how many options were found). */
  announcement?: string;
  onSelect: (value: string) => void;
}

/**
 * A search combobox (WAI-ARIA combobox with a listbox popup, from Ark UI): type to search, arrow keys
 * to move, Enter to choose, Escape to close. Choosing clears the input, because the choice acts at
 * once rather than filling a form field.
 */
export function Combobox({
  label,
  placeholder,
  triggerLabel,
  onInputValueChange,
  options,
  optionsLabel,
  currentValue,
  status,
  announcement,
  onSelect,
}: ComboboxProps) {
  const collection = useMemo(
    () =>
      createListCollection({
        items: [...options],
        itemToValue: (option) => option.value,
        itemToString: (option) => option.label,
      }),
    [options],
  );
  // A new array on every render reads to Ark as a new choice, which rewrites the input while typing.
  const value = useMemo(() => (currentValue ? [currentValue] : []), [currentValue]);
  return (
    <ArkCombobox.Root
      className="combobox"
      collection={collection}
      onInputValueChange={(details) => onInputValueChange(details.inputValue)}
      value={value}
      onSelect={(details) => onSelect(details.itemValue)}
      selectionBehavior="clear"
      inputBehavior="autohighlight"
      openOnClick
      positioning={{ placement: 'bottom-end' }}
      translations={{ triggerLabel }}
    >
      <ArkCombobox.Label className="visually-hidden">{label}</ArkCombobox.Label>
      <ArkCombobox.Control className="combobox__control">
        <ArkCombobox.Input className="combobox__input" placeholder={placeholder} />
        <ArkCombobox.Trigger className="combobox__trigger">
          <span aria-hidden="true">▾</span>
        </ArkCombobox.Trigger>
      </ArkCombobox.Control>
      <div className="visually-hidden" role="status">
        {status ?? announcement}
      </div>
      <Portal>
        <ArkCombobox.Positioner className="combobox__positioner">
          {/* The popup looks like the menus (menu__ classes): both are lists of choices. */}
          <ArkCombobox.Content className="menu__content combobox__content">
            {options.length > 0 ? (
              <ArkCombobox.ItemGroup>
                <ArkCombobox.ItemGroupLabel className="menu__group-label">
                  {optionsLabel}
                </ArkCombobox.ItemGroupLabel>
                {options.map((option) => (
                  <ArkCombobox.Item key={option.value} item={option} className="menu__item">
                    <ArkCombobox.ItemIndicator className="menu__check">✓</ArkCombobox.ItemIndicator>
                    <ArkCombobox.ItemText>{option.label}</ArkCombobox.ItemText>
                  </ArkCombobox.Item>
                ))}
              </ArkCombobox.ItemGroup>
            ) : null}
          </ArkCombobox.Content>
          {status ? (
            <ArkCombobox.Context>
              {(combobox) =>
                combobox.open ? (
                  // Hidden from assistive technology: the status region above announces the same text.
                  <p className="menu__content combobox__status" aria-hidden="true">
                    {status}
                  </p>
                ) : null
              }
            </ArkCombobox.Context>
          ) : null}
        </ArkCombobox.Positioner>
      </Portal>
    </ArkCombobox.Root>
  );
}
