import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientToolOs } from '../../contract/schemas/client-tools.ts';
import { TRUST_ASSISTANT_DOWNLOAD_VERSION } from '../../contract/trust-agent/constants.ts';
import { type TarEntry, tarGzip } from './tar-gzip.ts';

/** The repository this server runs from: the agent's sources are packaged from here. */
export const REPOSITORY_ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** The agent's entry: a package without it could not start. */
export const AGENT_ENTRY = 'agent/main.ts';
/** Service files, each packaged only for the system that uses it; README.md is the package's own. */
const SERVICE_DIR = 'agent/service';
const SERVICE_FILES: Record<ClientToolOs, readonly string[]> = {
  linux: ['install.sh', 'trust-assistant.service', 'trust-assistant-url.desktop'],
  mac: ['install.sh', 'com.trustconsole.trust-assistant.plist'],
  windows: [],
};
const PACKAGE_README = `${SERVICE_DIR}/README.md`;
/** What runs the agent's TypeScript: `node --import tsx`, like the platform's own scripts. */
const RUNNER_PACKAGE = 'tsx';

export interface AgentPackage {
  os: ClientToolOs;
  version: string;
  fileName: string;
  bytes: Buffer;
}

export function agentPackageFileName(version: string, os: ClientToolOs): string {
  return `trust-assistant-${version}-${os}.tar.gz`;
}

/**
 * Module specifiers of a source file, with whether each is only imported for its types. A pattern,
 * not a parser: the agent's and contract's sources use plain `import … from '…'`, `export … from
 * '…'` and `import('…')`. A specifier it found in a comment would add a file or a dependency too
 * many, never leave one out.
 */
function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const pattern =
    /\b(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"\n]+)['"]|\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;
  return [...source.matchAll(pattern)].map((match) => ({
    specifier: match[2] ?? match[3] ?? '',
    typeOnly: match[1] !== undefined,
  }));
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? '');
}

async function filesUnder(root: string, directory: string): Promise<string[]> {
  const entries = await readdir(path.join(root, directory), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const relative = `${directory}/${entry.name}`;
      if (entry.isDirectory()) return filesUnder(root, relative);
      return Promise.resolve(entry.isFile() ? [relative] : []);
    }),
  );
  return nested.flat();
}

interface AgentSources {
  /** Repository-relative paths of every agent file and the contract files the agent reaches. */
  files: string[];
  /** Packages the agent's code imports at run time. */
  dependencies: Set<string>;
}

/** agent/ whole, and of contract/ exactly the modules the agent's code reaches through its imports. */
async function agentSources(root: string): Promise<AgentSources> {
  const agentFiles = (await filesUnder(root, 'agent')).filter((file) => !file.startsWith(`${SERVICE_DIR}/`));
  const files = new Set(agentFiles);
  const dependencies = new Set<string>();
  const queue = agentFiles.filter((file) => file.endsWith('.ts'));
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const source = await readFile(path.join(root, file), 'utf8');
    for (const { specifier, typeOnly } of importsOf(source)) {
      if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        if (!target.startsWith('agent/') && !target.startsWith('contract/')) {
          throw new Error(
            `${file} imports ${specifier}, outside agent/ and contract/: it cannot be packaged.`,
          );
        }
        if (!files.has(target)) {
          if (!existsSync(path.join(root, target)))
            throw new Error(`${file} imports ${specifier}, which does not exist.`);
          files.add(target);
          queue.push(target);
        }
      } else if (!typeOnly && !isBuiltin(specifier)) {
        dependencies.add(packageNameOf(specifier));
      }
    }
  }
  return { files: [...files].sort(), dependencies };
}

interface RootManifest {
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
}

/** The package's package.json: the agent's run-time dependencies at the platform's pinned versions. */
function packageManifest(version: string, dependencyNames: Set<string>, root: RootManifest): string {
  const pinned = root.dependencies ?? {};
  const dependencies: Record<string, string> = {};
  for (const name of [...dependencyNames, RUNNER_PACKAGE].sort()) {
    const range = pinned[name];
    if (range === undefined) {
      throw new Error(`The agent imports ${name}, which is not a dependency in package.json.`);
    }
    dependencies[name] = range;
  }
  const manifest = {
    name: 'trust-assistant',
    version,
    private: true,
    description: 'The desktop trust agent of the trust console (127.0.0.1:8900).',
    type: 'module',
    engines: root.engines ?? {},
    scripts: { start: `node --import ${RUNNER_PACKAGE} ${AGENT_ENTRY}` },
    dependencies,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function directoriesOf(files: readonly string[]): string[] {
  const directories = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth += 1)
      directories.add(`${parts.slice(0, depth).join('/')}/`);
  }
  return [...directories];
}

/**
 * The trust agent's packages, one per operating system, built from the sources under `root`: a
 * `trust-assistant-<version>/` folder holding README.md, package.json, agent/ and the contract
 * modules it imports, and the service files of that system. Entries are sorted and carry fixed
 * owners, modes and times, so the same sources always give the same bytes (and the same hashes).
 */
export async function buildAgentPackages(
  options: { root?: string; version?: string } = {},
): Promise<AgentPackage[]> {
  const root = options.root ?? REPOSITORY_ROOT;
  const version = options.version ?? TRUST_ASSISTANT_DOWNLOAD_VERSION;
  if (!existsSync(path.join(root, AGENT_ENTRY))) {
    throw new Error(`${AGENT_ENTRY} does not exist in ${root}: there is no agent to package.`);
  }
  const sources = await agentSources(root);
  const rootManifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as RootManifest;
  const common = new Map<string, Uint8Array>([
    ['README.md', await readFile(path.join(root, PACKAGE_README))],
    ['package.json', Buffer.from(packageManifest(version, sources.dependencies, rootManifest))],
  ]);
  for (const file of sources.files) common.set(file, await readFile(path.join(root, file)));

  const folder = `trust-assistant-${version}`;
  return Promise.all(
    (Object.keys(SERVICE_FILES) as ClientToolOs[]).map(async (os) => {
      const contents = new Map(common);
      for (const name of SERVICE_FILES[os]) {
        const file = `${SERVICE_DIR}/${name}`;
        contents.set(file, await readFile(path.join(root, file)));
      }
      const files = [...contents.keys()];
      const entries: TarEntry[] = [
        ...[folder, ...directoriesOf(files).map((directory) => `${folder}/${directory}`)].map(
          (directory) => ({
            path: directory.endsWith('/') ? directory : `${directory}/`,
            mode: 0o755,
          }),
        ),
        ...files.map((file) => ({
          path: `${folder}/${file}`,
          content: contents.get(file),
          mode: file.endsWith('.sh') ? 0o755 : 0o644,
        })),
      ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { os, version, fileName: agentPackageFileName(version, os), bytes: tarGzip(entries) };
    }),
  );
}

/** Where a tool's file lives in the catalogue directory: `<tool id>/<version folder>/<file name>`. */
export function catalogueFilePath(catalogueDir: string, id: string, folder: string, name: string): string {
  return path.join(catalogueDir, id, folder, name);
}

/**
 * Writes a file unless it already holds these bytes. The new bytes go to a file of their own first
 * and are renamed over the old one, so a reader never sees half a package; processes that build the
 * same package at once write the same bytes, so whichever rename comes last changes nothing.
 */
export async function writeIfChanged(target: string, bytes: Buffer): Promise<boolean> {
  const current = existsSync(target) ? await readFile(target) : null;
  if (current?.equals(bytes)) return false;
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${Date.now()}.partial`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, target);
  } finally {
    await rm(temporary, { force: true });
  }
  return true;
}
