/**
 * The face of API tokens for the other domains (decision 016 §2): whose tokens a set of token routes
 * addresses, and making a token for an owner. The token routes themselves are mounted by the app.
 */
export { PERSON_TOKEN_OWNERS, type TokenOwner, type TokenOwners } from './access.ts';
export { issueApiToken } from './issue.ts';
