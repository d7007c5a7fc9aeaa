import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { NavigationItemId } from './navigation.ts';

/** Names of the console's sections, shared by the navigation, breadcrumbs and page headings. */
export const SECTION_LABELS: Readonly<Record<NavigationItemId | 'profile', MessageDescriptor>> = {
  accounts: msg`Accounts`,
  organizations: msg`Organizations`,
  certificateAuthority: msg`Certificate authority`,
  certificates: msg`Certificates`,
  enrollments: msg`Enrollments`,
  certificateProfiles: msg`Certificate profiles`,
  rootCa: msg`Root CA`,
  intermediateCa: msg`Intermediate CA`,
  clientTools: msg`Client tools`,
  access: msg`Access`,
  administrators: msg`Administrators`,
  serviceUsers: msg`Service users`,
  userRoles: msg`User roles`,
  reporting: msg`Reporting`,
  logging: msg`Logging`,
  platformSettings: msg`Platform settings`,
  profile: msg`Profile`,
};
