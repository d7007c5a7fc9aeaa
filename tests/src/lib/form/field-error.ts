import type { ApiErrorCode } from '../../../../contract/schemas/common.ts';
import { json } from '../../support.tsx';

/**
 * An error answer that names the field at fault and its code, as the platform API sends them. The
 * message is deliberately not one the console could translate: forms must act on `field` and `code`.
 */
export function fieldErrorAnswer(status: number, field: string, code: ApiErrorCode): Response {
  return json({ error: { status, message: `${field}: refused (server wording)`, field, code } }, status);
}
