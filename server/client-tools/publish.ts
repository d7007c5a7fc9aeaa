import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AGENT_ENTRY,
  type BuildOptions,
  buildAgentPackages,
  catalogueFilePath,
  REPOSITORY_ROOT,
  writeIfChanged,
} from './agent-package.ts';
import { AGENT_TOOLS } from './catalogue.ts';
import { AGENT_TARGETS } from './runtimes.ts';

/**
 * Builds the trust assistant's packages (or, with `cachedOnly`, takes those already built for these
 * sources) and puts each where the catalogue lists it, `<directory>/trust-assistant-<target>/<version>/`.
 * A package already holding the same bytes is left alone; one of the same version built from changed
 * sources is replaced. Answers the files written and the targets that had no package.
 */
export async function publishAgentPackages(
  directory: string,
  options: BuildOptions = {},
): Promise<{ written: string[]; missing: string[] }> {
  const packages = await buildAgentPackages(options);
  const written: string[] = [];
  for (const built of packages) {
    const tool = AGENT_TOOLS.find((candidate) => candidate.target === built.target.id);
    if (tool === undefined) throw new Error(`No catalogue entry for the ${built.target.id} package.`);
    const target = catalogueFilePath(directory, tool.id, built.version, built.fileName);
    if (await writeIfChanged(target, await readFile(built.file))) written.push(target);
  }
  const wanted = options.targets ?? AGENT_TARGETS.map((target) => target.id);
  const missing = wanted.filter((id) => !packages.some((built) => built.target.id === id));
  return { written, missing };
}

/**
 * At the server's start: the catalogue offers the packages `npm run agent:package` built for the
 * sources this server runs from. The server builds none itself: a package takes 7–15 s and Node.js
 * for other systems comes from the npm registry (decision 032). A server without the agent's sources,
 * or with a catalogue directory it may not write, still starts and lists what the directory holds.
 */
export async function ensureAgentPackages(
  directory: string,
  log: Pick<Console, 'info' | 'warn'> = console,
  options: Omit<BuildOptions, 'cachedOnly'> = {},
): Promise<void> {
  if (!existsSync(path.join(options.root ?? REPOSITORY_ROOT, AGENT_ENTRY))) {
    log.info(
      `The trust agent (${AGENT_ENTRY}) is not here: its packages are not published into ${directory}.`,
    );
    return;
  }
  try {
    const { written, missing } = await publishAgentPackages(directory, { ...options, cachedOnly: true });
    if (written.length > 0) log.info(`Trust agent packages published: ${written.join(', ')}`);
    if (missing.length > 0) {
      log.info(
        `The trust agent's packages for ${missing.join(', ')} are not built for these sources yet: npm start builds them in the background, npm run agent:package on its own.`,
      );
    }
  } catch (error) {
    log.warn(
      `The trust agent's packages could not be published into ${directory}: ${(error as Error).message}`,
    );
  }
}
