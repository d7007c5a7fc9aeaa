import type { Temporal as TemporalApi } from 'temporal-polyfill';

/**
 * The Temporal API the console computes dates with: the browser's own where it has one, else
 * temporal-polyfill (about 18 KB gzip), fetched once, by `loadTemporal()`. It is read through this
 * live binding, which is set before any screen that shows a date is drawn: the secure layout's
 * `beforeLoad` and the public pages that compute dates await `loadTemporal()` first, as does the
 * test setup. A use before that is a programming slip and fails loudly on `undefined`.
 */
export let Temporal: typeof TemporalApi;

/** The types of the API, under the same name as the value, so `Temporal.PlainDate` reads as it did. */
export declare namespace Temporal {
  type Instant = TemporalApi.Instant;
  type PlainDate = TemporalApi.PlainDate;
  type PlainDateTime = TemporalApi.PlainDateTime;
  type ZonedDateTime = TemporalApi.ZonedDateTime;
  type Duration = TemporalApi.Duration;
}

let loading: Promise<typeof TemporalApi> | undefined;

/** Sets `Temporal` (once) and gives it; later calls answer at once. */
export function loadTemporal(): Promise<typeof TemporalApi> {
  loading ??= (async () => {
    const native = (globalThis as { Temporal?: typeof TemporalApi }).Temporal;
    Temporal = native ?? (await import('temporal-polyfill')).Temporal;
    return Temporal;
  })();
  return loading;
}
