import type { ApiErrorBody } from '../../contract/schemas/common.ts';
import { VALIDATION_CODES } from '../../contract/validation.ts';
import { VALIDATION_TEXT } from '../../contract/validation-text.ts';

/** The `error` member of an error answer. */
export async function errorOf(response: Response): Promise<ApiErrorBody['error']> {
  const body = (await response.json()) as ApiErrorBody;
  return body.error;
}

/**
 * The whole 400 the server answers for a field that broke a rule of the contract, from the message a
 * test expects (`service_period.to: must be after today`): the field named before the colon and the
 * code whose English text follows it. A table of expected messages thereby checks field and code too.
 */
export function fieldError(message: string): ApiErrorBody['error'] {
  const separator = message.indexOf(': ');
  const field = message.slice(0, separator);
  const text = message.slice(separator + 2);
  const code = VALIDATION_CODES.find((key) => VALIDATION_TEXT[key] === text);
  if (separator < 0 || code === undefined) throw new Error(`Not a field rule's message: ${message}`);
  return { status: 400, message, field, code };
}
