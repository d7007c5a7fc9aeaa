import { useLingui } from '@lingui/react/macro';
import { type ComponentProps, useMemo } from 'react';
import { SELECTABLE_COUNTRY_CODES } from '../../contract/countries.ts';
import { bcp47For, consoleLocaleFor } from '../../contract/locales.ts';
import { SelectField, type SelectOption } from './ui/field.tsx';

/** Country names in the UI language, from the browser's own data (no list of names to translate). */
function regionNames(locale: string): Intl.DisplayNames {
  return new Intl.DisplayNames([bcp47For(consoleLocaleFor(locale)), 'en'], {
    type: 'region',
    fallback: 'code',
  });
}

/** The name of a country code in the UI language; the code itself when the browser knows no name. */
export function useCountryName(): (code: string) => string {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  return useMemo(() => {
    const names = regionNames(locale);
    return (code: string) => (code ? (names.of(code) ?? code) : '');
  }, [locale]);
}

type CountrySelectFieldProps = Omit<ComponentProps<typeof SelectField>, 'options'> & {
  /** The first, empty option, which makes the user choose rather than accept a default. */
  placeholder: string;
};

/**
 * The countries that can be chosen (CU, IR, SY and KP never are, account administration §5), sorted by
 * their names in the UI language, so a user finds their country where their alphabet puts it.
 */
export function CountrySelectField({ placeholder, ...select }: CountrySelectFieldProps) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const options = useMemo<SelectOption[]>(() => {
    const names = regionNames(locale);
    const collator = new Intl.Collator(bcp47For(consoleLocaleFor(locale)));
    const countries = SELECTABLE_COUNTRY_CODES.map((code) => ({
      value: code,
      label: names.of(code) ?? code,
    }));
    countries.sort((a, b) => collator.compare(a.label, b.label));
    return [{ value: '', label: placeholder }, ...countries];
  }, [locale, placeholder]);
  return <SelectField options={options} {...select} />;
}
