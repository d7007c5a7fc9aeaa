/**
 * The face of licences for the other domains (decision 016 §2).
 */
export { heldApplications } from './pools.ts';
