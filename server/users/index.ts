/**
 * The face of users for the other domains (decision 016 §2).
 */
export { permitAccessChange, replaceAccess } from './access-change.ts';
export { createPerson } from './create.ts';
export { roleNamesOf } from './csv.ts';
export { assertAccountsInReach, type RoleToGive, rolesInReach, scopeOfAccountType } from './grants.ts';
export { DEFAULT_SORT, listUsers } from './list.ts';
export { applicationOf, applicationRoles, insertUser } from './repository.ts';
export { ensureBuiltInRoles } from './roles.ts';
export { assertUserNameFree, probingUserNames, takenUserNames, UserNameInUse } from './user-name-probes.ts';
