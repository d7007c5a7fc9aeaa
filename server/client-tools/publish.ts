import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  AGENT_ENTRY,
  buildAgentPackages,
  catalogueFilePath,
  REPOSITORY_ROOT,
  writeIfChanged,
} from './agent-package.ts';
import { AGENT_TOOLS } from './catalogue.ts';

/**
 * Builds the trust agent's packages from `root` and puts each where the catalogue lists it,
 * `<directory>/trust-assistant-<os>/<version>/`. A package already holding the same bytes is left
 * alone; one of the same version built from changed sources is replaced. Answers the files written.
 */
export async function publishAgentPackages(
  directory: string,
  options: { root?: string; version?: string } = {},
): Promise<string[]> {
  const packages = await buildAgentPackages(options);
  const written: string[] = [];
  for (const built of packages) {
    const tool = AGENT_TOOLS.find((candidate) => candidate.os === built.os);
    if (tool === undefined) throw new Error(`No catalogue entry for the ${built.os} package.`);
    const target = catalogueFilePath(directory, tool.id, built.version, built.fileName);
    if (await writeIfChanged(target, built.bytes)) written.push(target);
  }
  return written;
}

/**
 * At the server's start: the catalogue offers the agent this server runs from. A server without the
 * agent's sources, or with a catalogue directory it may not write, still starts and lists what the
 * directory holds.
 */
export async function ensureAgentPackages(
  directory: string,
  log: Pick<Console, 'info' | 'warn'> = console,
): Promise<void> {
  if (!existsSync(path.join(REPOSITORY_ROOT, AGENT_ENTRY))) {
    log.info(`The trust agent (${AGENT_ENTRY}) is not here: its packages are not built into ${directory}.`);
    return;
  }
  try {
    const written = await publishAgentPackages(directory);
    if (written.length > 0) log.info(`Trust agent packages built: ${written.join(', ')}`);
  } catch (error) {
    log.warn(`The trust agent's packages could not be built into ${directory}: ${(error as Error).message}`);
  }
}
