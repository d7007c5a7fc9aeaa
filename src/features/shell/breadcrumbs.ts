import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { SECTION_LABELS } from './labels.ts';

export interface Crumb {
  /** Route path below the base path. */
  path: string;
  label: MessageDescriptor;
  /** Shown as text, not a link (the profile details crumb, C-17). */
  disabled: boolean;
}

const KNOWN_CRUMBS: Readonly<Record<string, { label: MessageDescriptor; disabled?: boolean }>> = {
  '/accounts': { label: SECTION_LABELS.accounts },
  '/ca/organizations': { label: SECTION_LABELS.organizations },
  '/ca/certificates': { label: SECTION_LABELS.certificates },
  '/ca/enrollments': { label: SECTION_LABELS.enrollments },
  '/ca/profiles': { label: SECTION_LABELS.certificateProfiles },
  '/ca/root': { label: SECTION_LABELS.rootCa },
  '/ca/intermediate': { label: SECTION_LABELS.intermediateCa },
  '/ca/client-tools': { label: SECTION_LABELS.clientTools },
  '/access': { label: SECTION_LABELS.access },
  '/access/administrators': { label: SECTION_LABELS.administrators },
  '/access/service-user': { label: SECTION_LABELS.serviceUsers },
  '/access/manage-user-roles': { label: SECTION_LABELS.userRoles },
  '/reporting': { label: SECTION_LABELS.reporting },
  '/reporting/logging': { label: SECTION_LABELS.logging },
  '/settings': { label: SECTION_LABELS.platformSettings },
  '/profile': { label: SECTION_LABELS.profile, disabled: true },
};

const ACTION_LABELS: Readonly<Record<string, MessageDescriptor>> = {
  create: msg`Create`,
  edit: msg`Edit`,
  'create-account': msg`Create account`,
  'create-partner-account': msg`Create partner account`,
  'create-contact': msg`Create contact`,
  'create-role': msg`Create role`,
  'clone-role': msg`Clone role`,
  'edit-role': msg`Edit role`,
  'role-detail': msg`Role`,
  'role-user-create': msg`Create administrator`,
  'role-bulk-user-create': msg`Import administrators`,
  'bulk-user-create': msg`Import administrators`,
  'role-service-user-create': msg`Create service user`,
  'role-service-user-edit': msg`Edit service user`,
  'role-edit': msg`Edit roles`,
  'role-user-edit': msg`Edit administrator`,
  'change-password': msg`Change password`,
  'client-auth': msg`Client certificates`,
  'upload-certificate': msg`Upload certificate`,
};

/** Segments that name an action on the id after them and have no page of their own: text, not links (decision 039 §2). */
const PAGELESS_SEGMENTS = new Set(['clone-role', 'edit-role', 'role-detail']);

/** Path segments that only group sections and have no page of their own. */
const GROUPING_SEGMENTS = new Set(['ca']);

/** Breadcrumbs from the current path (C-15): one per segment that names a page. */
export function breadcrumbsFor(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments.flatMap((segment, index) => {
    const path = `/${segments.slice(0, index + 1).join('/')}`;
    const known = KNOWN_CRUMBS[path];
    if (known) return [{ path, label: known.label, disabled: known.disabled ?? false }];
    if (GROUPING_SEGMENTS.has(segment) && index === 0) return [];
    const pageless = PAGELESS_SEGMENTS.has(segment) && index < segments.length - 1;
    return [{ path, label: ACTION_LABELS[segment] ?? msg`Details`, disabled: pageless }];
  });
}

/** Administrator sub-pages show a Back link instead of breadcrumbs (C-16). */
export function showsBackLinkInsteadOfBreadcrumbs(pathname: string): boolean {
  return pathname.startsWith('/access/administrators/');
}
