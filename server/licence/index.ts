/**
 * The face of licence for the other domains (decision 016 §2).
 */
export {
  currentLicenceStatus,
  findCurrentLicence,
  insertLicence,
  licensedApplications,
  storedPayload,
  systemPoolLimit,
} from './store.ts';
export { loadTrustedLicenceKeys } from './vendor-keys.ts';
export { describeLicenceFailure, licenceFailureCode, verifyLicence } from './verify.ts';
