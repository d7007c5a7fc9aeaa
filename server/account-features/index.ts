/**
 * The face of account-features for the other domains (decision 016 §2).
 */
export { featureEnabled } from './repository.ts';
