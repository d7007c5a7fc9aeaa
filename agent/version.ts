import { TRUST_ASSISTANT_DOWNLOAD_VERSION } from '../contract/trust-agent/constants.ts';

/** This agent's version: the build the console offers for download (overview §9, 1.1.4). */
export const AGENT_VERSION = TRUST_ASSISTANT_DOWNLOAD_VERSION;
