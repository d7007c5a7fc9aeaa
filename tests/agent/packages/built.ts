import { readFile } from 'node:fs/promises';
import { type AgentPackage, buildAgentPackages } from '../../../server/client-tools/agent-package.ts';
import { readTarGzip, type TarFile } from '../../../server/client-tools/tar-gzip.ts';

/**
 * A cold build of all four packages takes about a minute on two cores (`npm test` builds them first,
 * with `npm run agent:package -- --build-only`, so the suites find them in dist/trust-assistant/).
 */
export const BUILD_TIMEOUT_MS = 600_000;

let packages: Promise<AgentPackage[]> | null = null;

/** The packages of the repository's own sources, built once per run into the build directory. */
export function repositoryPackages(): Promise<AgentPackage[]> {
  packages ??= buildAgentPackages({ concurrency: 2 });
  return packages;
}

export async function repositoryPackage(targetId: string): Promise<AgentPackage> {
  const found = (await repositoryPackages()).find((built) => built.target.id === targetId);
  if (!found) throw new Error(`No ${targetId} package was built.`);
  return found;
}

/** A package's files by their path inside `trust-assistant-<version>/`. */
export async function packageFiles(built: AgentPackage): Promise<Map<string, TarFile>> {
  const folder = `trust-assistant-${built.version}/`;
  const files = new Map<string, TarFile>();
  for (const file of readTarGzip(await readFile(built.file))) {
    if (!file.path.startsWith(folder)) throw new Error(`${file.path} is outside ${folder}`);
    files.set(file.path.slice(folder.length), file);
  }
  return files;
}
