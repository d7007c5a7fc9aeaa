import { intlLocaleOf } from '../../contract/locales.ts';

/**
 * A size in the user's language and Intl's own unit symbols ("4 kB", "4 Ko", "6.5 MB"), in the
 * largest unit of 1,024 under the size: every size the console shows is written this one way.
 */
export function formatByteSize(bytes: number, locale: string): string {
  const [value, unit] =
    bytes < 1024
      ? [bytes, 'byte']
      : bytes < 1024 ** 2
        ? [bytes / 1024, 'kilobyte']
        : [bytes / 1024 ** 2, 'megabyte'];
  return new Intl.NumberFormat(intlLocaleOf(locale), {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}
