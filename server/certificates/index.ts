/**
 * The face of certificates for the other domains (decision 016 §2).
 */
export { issuerChain } from './repository.ts';
