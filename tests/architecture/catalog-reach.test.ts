import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogReachProblems } from '../../scripts/catalog-reach.ts';

/** A console in miniature: route files, the modules they import and where extraction put their messages. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'catalog-reach-'));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const LAYOUTS = {
  'src/main.tsx': "import './routeTree.gen.ts';\n",
  'src/routeTree.gen.ts': "import './routes/_secure/access/index.tsx';\n",
  'src/routes/__root.tsx': 'export {};\n',
  'src/routes/_secure.tsx': "loader: () => loadAreaCatalog('console');\n",
  'src/routes/_secure/access/route.tsx': "loader: () => loadAreaCatalog('access');\n",
  'src/routes/_secure/ca/route.tsx': "loader: () => loadAreaCatalog('ca');\n",
};

/** `catalogOf` gives each module with messages the catalog extraction put them in; null for none. */
function problemsOf(files: Record<string, string>, catalogOf: Record<string, string | null>): string[] {
  const root = project({ ...LAYOUTS, ...files });
  roots.push(root);
  return catalogReachProblems({
    root,
    routesDir: 'src/routes',
    entries: ['src/main.tsx'],
    modulesWithMessages: new Set(Object.keys(catalogOf)),
    catalogsOfModule: new Map(
      Object.entries(catalogOf).flatMap(([file, catalog]) => (catalog ? [[file, new Set([catalog])]] : [])),
    ),
  });
}

describe('which catalogs a route loads before it draws', () => {
  it('accepts a screen whose modules are in its area, the base or the public catalog', () => {
    const problems = problemsOf(
      {
        'src/routes/_secure/access/index.tsx': "import '../../../features/users/page.tsx';\n",
        'src/features/users/page.tsx':
          "import '../../components/role-picker.tsx';\nimport '../../lib/errors.ts';\n",
        'src/components/role-picker.tsx': 'export {};\n',
        'src/lib/errors.ts': 'export {};\n',
      },
      {
        'src/features/users/page.tsx': 'access',
        'src/components/role-picker.tsx': 'console',
        'src/lib/errors.ts': 'public',
      },
    );
    expect(problems).toEqual([]);
  });

  it("names a module of one area's catalog that another area draws", () => {
    const problems = problemsOf(
      {
        'src/routes/_secure/access/index.tsx': "import '../../../components/role-picker.tsx';\n",
        'src/routes/_secure/ca/index.tsx': "import('../../../components/role-picker.tsx');\n",
        'src/components/role-picker.tsx': 'export {};\n',
      },
      { 'src/components/role-picker.tsx': 'access' },
    );
    expect(problems).toEqual([
      'src/routes/_secure/ca/index.tsx draws src/components/role-picker.tsx, whose messages are in access, but loads only public, console, ca',
    ]);
  });

  it('names a module whose messages no catalog holds, and what the entry draws before any route', () => {
    const problems = problemsOf(
      {
        'src/main.tsx': "import './features/shell/banner.tsx';\n",
        'src/features/shell/banner.tsx': 'export {};\n',
      },
      { 'src/features/shell/banner.tsx': null },
    );
    expect(problems).toEqual([
      'src/main.tsx draws src/features/shell/banner.tsx, whose messages are in no catalog, but loads only public',
    ]);
  });

  it('does not follow type-only imports, which bring no texts, nor walk into other routes', () => {
    const problems = problemsOf(
      {
        'src/routes/_secure/ca/index.tsx':
          "import type { Role } from '../../../features/roles/page.tsx';\nimport '../access/index.tsx';\n",
        'src/routes/_secure/access/index.tsx': "import '../../../features/roles/page.tsx';\n",
        'src/features/roles/page.tsx': 'export type Role = string;\n',
      },
      { 'src/features/roles/page.tsx': 'access' },
    );
    expect(problems).toEqual([]);
  });

  it('does not count an index route as the layout of its siblings', () => {
    const problems = problemsOf(
      {
        'src/routes/_secure/reporting/index.tsx': "loader: () => loadAreaCatalog('reporting');\n",
        'src/routes/_secure/reporting/logging.tsx': "import '../../../features/audit/page.tsx';\n",
        'src/features/audit/page.tsx': 'export {};\n',
      },
      { 'src/features/audit/page.tsx': 'reporting' },
    );
    expect(problems).toEqual([
      'src/routes/_secure/reporting/logging.tsx draws src/features/audit/page.tsx, whose messages are in reporting, but loads only public, console',
    ]);
  });
});
