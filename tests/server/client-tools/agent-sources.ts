import { cp, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPOSITORY_ROOT } from '../../../server/client-tools/agent-package.ts';

/**
 * A small agent source tree to package: an entry that imports a module of its own, a contract
 * module (which imports another) and packages at run time and for types only, beside a contract
 * module nothing imports; the service files are the repository's own, and so are its packages.
 */
export async function agentSourceTree(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'trust-agent-sources-'));
  const files: Record<string, string> = {
    'agent/main.ts': [
      "import * as v from 'valibot';",
      "import type { Hono } from 'hono';",
      "import { readFile } from 'node:fs/promises';",
      "import { AGENT_VERSION } from './version.ts';",
      "import { PORT } from '../contract/ports.ts';",
      'export type Unused = Hono;',
      'export async function run(args: string[]) {',
      '  console.log(AGENT_VERSION, PORT, v.is(v.string(), readFile.name), args);',
      '}',
      '',
    ].join('\n'),
    'agent/version.ts': "export const AGENT_VERSION = '9.9.9';\n",
    'contract/ports.ts': "export { BASE } from './base.ts';\nexport const PORT = 8900;\n",
    'contract/base.ts': 'export const BASE = 8000;\n',
    'contract/unrelated.ts': "import { Hono } from 'hono';\nexport const app = new Hono();\n",
    'package.json': JSON.stringify({
      engines: { node: '>=22.12' },
      dependencies: { hono: '4.13.19', tsx: '4.23.0', valibot: '1.5.0', react: '19.3.1' },
    }),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  await cp(path.join(REPOSITORY_ROOT, 'agent/service'), path.join(root, 'agent/service'), {
    recursive: true,
  });
  return root;
}
