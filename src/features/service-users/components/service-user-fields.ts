import { isServiceEndDateAllowed } from '../../../../contract/validation.ts';
import { today } from '../../../lib/dates.ts';
import type { FieldCodes, FormValues } from '../../../lib/form/use-form.ts';

/** The server's today: end dates are calendar days in UTC (decision 018 §2). */
const utcToday = () => today('UTC').toString();

/** An empty date input means no end date. */
export function endDateOf(values: FormValues): string | null {
  return values.end_date ? values.end_date : null;
}

/**
 * A new end date must be after today (as the server checks); the one the service user already has
 * (`current`) may stay as it is.
 */
export function endDateRule(current: string | null) {
  return (values: FormValues): FieldCodes => {
    const endDate = endDateOf(values);
    if (endDate === null || endDate === current || isServiceEndDateAllowed(endDate, utcToday())) return {};
    return { end_date: 'endDateNotInFuture' };
  };
}
