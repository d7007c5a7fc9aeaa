import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { removeMachOSignature, removePeSignature } from './executable-formats.ts';
import type { AgentTarget } from './runtimes.ts';

const execFileAsync = promisify(execFile);

/** The Node.js that makes the blob: the packages' runtime, so the blob's format is the one it reads. */
export const BLOB_NODE_VERSION = '22.23.3';

/** The agent's entry in a package: it runs the agent's command line (agent/main.ts). */
export const EXECUTABLE_ENTRY = 'agent/service/executable.ts';
/** pkcs11js's native module, shipped beside the executable: a single executable cannot embed one. */
export const NATIVE_MODULE = 'pkcs11.node';
/** The fuse Node.js looks for to know it carries an application (Node.js's single executables). */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
export const SEA_RESOURCE = 'NODE_SEA_BLOB';

/**
 * pkcs11js loads `build/Release/pkcs11.node` with a require that a single executable cannot serve. In
 * the bundle that require reads the module beside the executable; where there is none (the packages
 * for the systems it is not built for), PKCS#11 modules fail to load with a message that says why and
 * the rest of the agent, the software keystore included, works.
 */
const nativeModulePlugin: Plugin = {
  name: 'pkcs11js-native-module',
  setup(bundler) {
    bundler.onResolve({ filter: /\.node$/ }, (args) => ({ path: args.path, namespace: 'native-module' }));
    bundler.onLoad({ filter: /.*/, namespace: 'native-module' }, () => ({
      loader: 'js',
      contents: `
const { existsSync } = require('node:fs');
const path = require('node:path');
const file = path.join(path.dirname(process.execPath), ${JSON.stringify(NATIVE_MODULE)});
if (existsSync(file)) {
  process.dlopen(module, file);
} else {
  const missing = 'PKCS#11 tokens need ' + file + ', which this package for ' + process.platform + ' does not carry: use the software keystore, or the agent built on this system (README.md).';
  module.exports = { PKCS11: class { load() { throw new Error(missing); } } };
}
`,
    }));
  },
};

/**
 * node-notifier finds the programs that show notifications (terminal-notifier on macOS, SnoreToast on
 * Windows) in `../vendor/` from its own `notifiers/` folder. A single executable has no such folder:
 * its notifiers look beside the executable instead, in the `vendor/` folder the package carries.
 */
const notifierVendorPlugin: Plugin = {
  name: 'node-notifier-vendor',
  setup(bundler) {
    bundler.onLoad({ filter: /node-notifier[\\/]notifiers[\\/][^\\/]+\.js$/ }, async (args) => ({
      loader: 'js',
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        '__dirname',
        "require('node:path').join(require('node:path').dirname(process.execPath), 'notifiers')",
      ),
    }));
  },
};

/**
 * The agent and everything it imports as one CommonJS script, the form a Node.js 22 single executable
 * runs. Deterministic: the same sources give the same bytes.
 */
export async function bundleAgent(root: string): Promise<Buffer> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [EXECUTABLE_ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    write: false,
    outfile: 'trust-assistant.cjs',
    // agent/main.ts runs itself when it is the script node started; in the bundle the entry runs it.
    define: { 'import.meta.url': '"trust-assistant:bundle"' },
    legalComments: 'eof',
    logLevel: 'silent',
    plugins: [nativeModulePlugin, notifierVendorPlugin],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no bundle of the agent.');
  return Buffer.from(output.contents);
}

/**
 * The single-executable preparation blob of a bundle, made by this Node.js, which must be the
 * packages' own Node.js version. No code cache and no snapshot: both are tied to the exact V8 build and
 * processor, and the packages are built for other systems than this one.
 */
export async function seaBlob(bundle: Buffer): Promise<Buffer> {
  if (process.versions.node !== BLOB_NODE_VERSION) {
    throw new Error(
      `The agent's blob is made by Node.js ${BLOB_NODE_VERSION} (the node development dependency, first on the path of npm run); this is ${process.version}.`,
    );
  }
  const work = await mkdtemp(path.join(tmpdir(), 'trust-assistant-sea-'));
  try {
    await writeFile(path.join(work, 'agent.cjs'), bundle);
    await writeFile(
      path.join(work, 'sea.json'),
      JSON.stringify({
        main: 'agent.cjs',
        output: 'agent.blob',
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
      }),
    );
    await execFileAsync(process.execPath, ['--experimental-sea-config', 'sea.json'], { cwd: work });
    return await readFile(path.join(work, 'agent.blob'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const require = createRequire(import.meta.url);

/**
 * The runtime's binary with the agent's blob injected by postject (Node.js's tool for it), in a
 * process of its own: postject holds the whole binary in WebAssembly memory, about 1 GB for macOS.
 * The signature the binary came with is removed first (decision 032).
 */
export async function injectAgent(target: AgentTarget, runtimeBinary: Buffer, blob: Buffer): Promise<Buffer> {
  const unsigned =
    target.format === 'macho'
      ? removeMachOSignature(runtimeBinary)
      : target.format === 'pe'
        ? removePeSignature(runtimeBinary)
        : runtimeBinary;
  const work = await mkdtemp(path.join(tmpdir(), `trust-assistant-${target.id}-`));
  try {
    const executable = path.join(work, target.executable);
    await writeFile(executable, unsigned);
    await writeFile(path.join(work, 'agent.blob'), blob);
    const cli = path.join(path.dirname(require.resolve('postject/package.json')), 'dist/cli.js');
    await execFileAsync(
      process.execPath,
      [
        cli,
        executable,
        SEA_RESOURCE,
        path.join(work, 'agent.blob'),
        '--sentinel-fuse',
        SEA_FUSE,
        ...(target.format === 'macho' ? ['--macho-segment-name', 'NODE_SEA'] : []),
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return await readFile(executable);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
