import path from 'node:path';
import { parseArgs } from 'node:util';
import { publishAgentPackages } from '../server/client-tools/publish.ts';
import { clientToolsDir } from '../server/config.ts';

/**
 * `npm run agent:package [-- --out DIR]`: builds the trust agent's packages (Linux, macOS, Windows)
 * into the client-tools catalogue, CLIENT_TOOLS_DIR or `<DATA_DIR or data>/client-tools` unless
 * --out names another directory. The server does the same at its start; this is for building them
 * ahead, e.g. into a catalogue directory several servers share.
 */
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const directory = values.out ? path.resolve(values.out) : clientToolsDir(process.env);
try {
  const written = await publishAgentPackages(directory);
  console.info(
    written.length > 0
      ? `Built into ${directory}:\n  ${written.join('\n  ')}`
      : `The packages in ${directory} are up to date.`,
  );
} catch (error) {
  console.error(`The trust agent could not be packaged: ${(error as Error).message}`);
  process.exit(1);
}
