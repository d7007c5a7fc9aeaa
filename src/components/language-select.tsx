import { useLingui } from '@lingui/react/macro';
import { type ConsoleLocale, isPlatformLocale, type PlatformLocale } from '../../contract/locales.ts';
import { platformLocaleFor } from '../lib/i18n.ts';
import { languageChoices, platformLocales } from '../lib/locales.ts';
import { usePublicResource } from '../lib/public-data.ts';
import { SelectField } from './ui/field.tsx';

interface LanguageSelectProps {
  onChoose: (code: PlatformLocale) => void;
}

/** The "Language" dropdown of the public pages; choosing reloads the page in that language. */
export function LanguageSelect({ onChoose }: LanguageSelectProps) {
  const { t, i18n } = useLingui();
  const { data } = usePublicResource(platformLocales);
  const options = languageChoices(data?.items).map((choice) => ({
    value: choice.code,
    label: choice.name,
    lang: choice.lang,
  }));
  return (
    <SelectField
      label={t`Language`}
      description={t`The page reloads in the language you choose.`}
      options={options}
      value={platformLocaleFor(i18n.locale as ConsoleLocale)}
      onChange={(event) => {
        const code = event.currentTarget.value;
        if (isPlatformLocale(code)) onChoose(code);
      }}
    />
  );
}
