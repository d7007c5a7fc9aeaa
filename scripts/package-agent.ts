import path from 'node:path';
import { parseArgs } from 'node:util';
import { publishAgentPackages } from '../server/client-tools/publish.ts';
import { AGENT_TARGETS } from '../server/client-tools/runtimes.ts';
import { clientToolsDir } from '../server/config.ts';

/**
 * `npm run agent:package [-- --target linux-x64 …] [--out DIR] [--build-only]`: builds the trust
 * assistant's packages, each an executable carrying Node.js (decision 032), into dist/trust-assistant/
 * (a package already built from the same inputs is kept), then publishes them into the client-tools
 * catalogue: CLIENT_TOOLS_DIR or `<DATA_DIR or data>/client-tools`, or the directory --out names.
 * `--build-only` publishes nothing. The server publishes what is built here at its start.
 */
const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    target: { type: 'string', multiple: true },
    'build-only': { type: 'boolean' },
  },
});
const directory = values.out ? path.resolve(values.out) : clientToolsDir(process.env);
const targets = values.target ?? AGENT_TARGETS.map((target) => target.id);
const started = performance.now();
try {
  if (values['build-only']) {
    const { buildAgentPackages } = await import('../server/client-tools/agent-package.ts');
    const packages = await buildAgentPackages({ targets, concurrency: 2 });
    for (const built of packages) console.info(`${built.built ? 'Built' : 'Up to date'}: ${built.file}`);
  } else {
    const { written } = await publishAgentPackages(directory, { targets, concurrency: 2 });
    console.info(
      written.length > 0
        ? `Published into ${directory}:\n  ${written.join('\n  ')}`
        : `The packages in ${directory} are up to date.`,
    );
  }
  console.info(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
} catch (error) {
  console.error(`The trust agent could not be packaged: ${(error as Error).message}`);
  process.exit(1);
}
