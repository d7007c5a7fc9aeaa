import { CLIENT_TOOL_OPERATING_SYSTEMS, type ClientToolOs } from '../../../contract/schemas/client-tools.ts';

/** The systems in the catalogue's order, the visitor's first. */
export function operatingSystemsFirst(first: ClientToolOs | null): ClientToolOs[] {
  return [...CLIENT_TOOL_OPERATING_SYSTEMS].sort((a, b) => Number(b === first) - Number(a === first));
}
