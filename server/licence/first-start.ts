import path from 'node:path';

/**
 * The command a fresh platform prints to make a licence for local use: it names the data directory
 * the server runs on, whose vendor key the server trusts, and writes the licence file into it, where
 * git ignores it, instead of into whatever directory the command is typed in.
 */
export function licenceCommand(dataDir: string): string {
  const file = path.join(dataDir, 'licence.txt');
  return `npm run --silent licence -- --days 365 --data-dir ${JSON.stringify(dataDir)} > ${JSON.stringify(file)}`;
}
