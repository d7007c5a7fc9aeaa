import type { ApplicationCode } from './permissions.ts';

/**
 * How each application is shown and where it lives. `context` is the base path of the
 * application's console, the part of the platform a user is sent to when opening it.
 */
export const APPLICATIONS: Readonly<Record<ApplicationCode, { name: string; context: string }>> = {
  account_manager: { name: 'Account Manager', context: '/account' },
  ca_manager: { name: 'Private CA', context: '/certificate-authority' },
  secure_software_manager: { name: 'Software Trust Manager', context: '/signingmanager' },
  device_manager: { name: 'IoT Device Manager', context: '/iot' },
  enterprise_manager: { name: 'Enterprise Manager', context: '/enterprise-manager' },
  document_signing_manager: { name: 'Document Signing Manager', context: '/documentmanager' },
  discovery_automation_manager: { name: 'Discovery and Automation Manager', context: '/discovery' },
  device_trust_manager: { name: 'Device Trust Manager', context: '/devicetrustmanager' },
};
