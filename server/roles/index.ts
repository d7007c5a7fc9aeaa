/**
 * The face of roles for the other domains (decision 016 §2).
 */
export { assertMayChangeUser, assertMayGiveRole, assertSystemAdministratorRemains } from './assignments.ts';
