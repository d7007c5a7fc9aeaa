import {
  type ApiToken,
  apiTokenEndDateIssue,
  MAX_ACTIVE_API_TOKENS,
} from '../../contract/schemas/api-tokens.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { TokenOwner } from './access.ts';

/** The end-date rule of `contract/schemas/api-tokens.ts`, the one the console's form applies too. */
export function assertEndDate(endDate: string | null, today: string): void {
  const issue = apiTokenEndDateIssue(endDate, today);
  if (issue !== null) throw invalidField('end_date', issue);
}

/** A revoked token stays revoked: its end date no longer means anything. */
export function assertNotRevoked(token: ApiToken): void {
  if (token.revoked_at !== null) {
    throw new ApiError(409, 'This API token is revoked.', { code: 'conflict' });
  }
}

export function assertBelowLimit(activeTokens: number): void {
  if (activeTokens >= MAX_ACTIVE_API_TOKENS) {
    throw new ApiError(409, `A user holds at most ${MAX_ACTIVE_API_TOKENS} active API tokens.`, {
      code: 'limitReached',
    });
  }
}

export function nameInUse(): ApiError {
  return new ApiError(409, 'name: already in use', { field: 'name', code: 'inUse' });
}

/**
 * A service user's token ends no later than the service user (decision 036): a date after its end
 * date is 400 on `end_date`. A token without an end date stops with its service user anyway, since
 * authentication checks both dates.
 */
export function assertWithinOwnerEndDate(owner: TokenOwner, endDate: string | null): void {
  const ownerEnd = owner.end_date ?? null;
  if (ownerEnd !== null && endDate !== null && endDate > ownerEnd)
    throw invalidField('end_date', 'invalidValue');
}
