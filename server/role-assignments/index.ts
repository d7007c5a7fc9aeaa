/**
 * Role assignments, the service below users, service users and roles (decision 016 §2): who may give
 * a role, who may change a user's roles, that the platform keeps a system administrator, and whether
 * custom roles may be assigned at all (the roles feature, G8).
 */
export {
  assertMayChangeUser,
  assertMayGiveRole,
  assertSystemAdministratorRemains,
  changeRoleHolders,
} from './assignments.ts';
export { assertRolesFeatureOn, rolesFeatureOn } from './feature.ts';
