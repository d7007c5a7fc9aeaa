/**
 * The face of enrollments for the other domains (decision 016 §2).
 */
export { cancelPendingEnrollmentsOf } from './lifecycle.ts';
