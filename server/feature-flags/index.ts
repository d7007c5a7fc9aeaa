/**
 * The face of feature-flags for the other domains (decision 016 §2).
 */
export { readFeatureFlags } from './store.ts';
