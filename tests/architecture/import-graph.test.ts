import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importSpecifiers, packageName } from './import-graph.ts';
import { describeViolation, LAYER_RULES, layerViolations } from './layers.ts';

/** What the rules report for a small repository given as path → source. */
function reported(files: Record<string, string>): string[] {
  return layerViolations(importGraph(new Map(Object.entries(files)))).map(describeViolation);
}

function cycles(files: Record<string, string>): string[][] {
  return importCycles(importGraph(new Map(Object.entries(files))));
}

describe('reading the imports of a module', () => {
  it('sees static imports, re-exports, side-effect imports and dynamic imports of a plain string', () => {
    const source = `
      import { a } from './a.ts';
      import type { B } from './b.ts';
      import { type C, c } from './c.ts';
      import './d.css';
      export { e } from './e.ts';
      export type { F } from './f.ts';
      export * from './g.ts';
      const h = () => import('./h.tsx');
      const i = () => import(\`./i.ts\`);
    `;
    expect(importSpecifiers('x.ts', source)).toEqual([
      { value: './a.ts', typeOnly: false },
      { value: './b.ts', typeOnly: true },
      { value: './c.ts', typeOnly: false },
      { value: './d.css', typeOnly: false },
      { value: './e.ts', typeOnly: false },
      { value: './f.ts', typeOnly: true },
      { value: './g.ts', typeOnly: false },
      { value: './h.tsx', typeOnly: false, dynamic: true },
      { value: './i.ts', typeOnly: false, dynamic: true },
    ]);
  });

  it('ignores import-like text in comments and strings, and dynamic imports computed at run time', () => {
    const source = `
      // import { a } from './a.ts';
      /* export * from './b.ts'; */
      const text = "import('./c.ts')";
      const load = (locale: string) => import(\`./locales/\${locale}.ts\`);
    `;
    expect(importSpecifiers('x.ts', source)).toEqual([]);
  });

  it('reads JSX files', () => {
    const source = `import { Button } from './button.tsx';\nexport const View = () => <Button label="x" />;`;
    expect(importSpecifiers('x.tsx', source)).toEqual([{ value: './button.tsx', typeOnly: false }]);
  });

  it('resolves relative paths against the importing file, with or without the extension', () => {
    const edges = importGraph(
      new Map([
        [
          'src/features/a/components/view.tsx',
          "import { q } from '../queries';\nimport x from '../../../lib/x.ts?url';",
        ],
        ['src/features/a/queries.ts', ''],
        ['src/lib/x.ts', ''],
      ]),
    );
    expect(edges.map(({ to, kind }) => [to, kind])).toEqual([
      ['src/features/a/queries.ts', 'file'],
      ['src/lib/x.ts', 'file'],
    ]);
  });

  it('names a package without its subpath', () => {
    expect(packageName('@ark-ui/react/dialog')).toBe('@ark-ui/react');
    expect(packageName('hono/cookie')).toBe('hono');
    expect(packageName('node:crypto')).toBe('node:crypto');
  });
});

describe('import cycles', () => {
  it('are reported with the files that form them, from the first by name', () => {
    expect(
      cycles({
        'src/lib/b.ts': "import { c } from './c.ts';",
        'src/lib/c.ts': "import { a } from './a.ts';",
        'src/lib/a.ts': "import { b } from './b.ts';",
        'src/lib/outside.ts': "import { a } from './a.ts';",
      }),
    ).toEqual([['src/lib/a.ts', 'src/lib/b.ts', 'src/lib/c.ts', 'src/lib/a.ts']]);
  });

  it('include a module importing itself and cycles through a dynamic import', () => {
    expect(
      cycles({
        'sw/self.ts': "export * from './self.ts';",
        'server/a.ts': "import './b.ts';",
        'server/b.ts': "const later = () => import('./a.ts');",
      }),
    ).toEqual([
      ['server/a.ts', 'server/b.ts', 'server/a.ts'],
      ['sw/self.ts', 'sw/self.ts'],
    ]);
  });

  it('leave out type-only imports, which the compiler erases', () => {
    expect(
      cycles({
        'contract/a.ts': "import type { B } from './b.ts';\nexport const a = 1;",
        'contract/b.ts': "import { a } from './a.ts';\nexport type B = typeof a;",
      }),
    ).toEqual([]);
  });

  it('are none in a graph without one', () => {
    expect(
      cycles({ 'src/a.ts': "import './b.ts';", 'src/b.ts': "import './c.ts';", 'src/c.ts': '' }),
    ).toEqual([]);
  });
});

describe('layering rules', () => {
  it('report a feature importing another feature, also for a type, and not within one feature', () => {
    expect(
      reported({
        'src/features/accounts/components/details.tsx':
          "import { organizationsQuery } from '../../organizations/queries.ts';\nimport { accountQuery } from '../queries.ts';",
        'src/features/accounts/queries.ts': '',
        'src/features/accounts/types.ts': "import type { Organization } from '../organizations/types.ts';",
        'src/features/organizations/queries.ts': '',
        'src/features/organizations/types.ts': '',
      }),
    ).toEqual([
      'src/features/accounts/components/details.tsx imports src/features/organizations/queries.ts, but a feature never imports another feature (decision 002)',
      'src/features/accounts/types.ts imports src/features/organizations/types.ts, but a feature never imports another feature (decision 002)',
    ]);
  });

  it('report lib/ importing a feature, a route or a component, and components/ importing a feature or a route', () => {
    expect(
      reported({
        'src/lib/session.ts': "import { x } from '../features/session/x.ts';",
        'src/lib/offline/start.ts': "const toast = () => import('../../components/ui/toast.tsx');",
        'src/lib/router.ts': "import { Route } from '../routes/_secure.tsx';",
        'src/components/nav.tsx':
          "import { Route } from '../routes/_secure.tsx';\nimport { y } from '../lib/y.ts';",
        'src/features/session/x.ts':
          "import { y } from '../../lib/y.ts';\nimport { Button } from '../../components/button.tsx';",
      }),
    ).toEqual([
      'src/components/nav.tsx imports src/routes/_secure.tsx, but src/components sits below the features and routes (decision 002)',
      'src/lib/session.ts imports src/features/session/x.ts, but src/lib sits below the components, features and routes (decision 002)',
      'src/lib/offline/start.ts imports src/components/ui/toast.tsx, but src/lib sits below the components, features and routes (decision 002)',
      'src/lib/router.ts imports src/routes/_secure.tsx, but src/lib sits below the components, features and routes (decision 002)',
    ]);
  });

  it('report the contract importing a program or a package it may not use', () => {
    expect(
      reported({
        'contract/paths.ts': "import { x } from '../src/lib/x.ts';\nimport * as v from 'valibot';",
        'contract/time.ts':
          "import { Temporal } from 'temporal-polyfill';\nimport { randomUUID } from 'node:crypto';",
        'contract/rules.ts': "import { paths } from './paths.ts';",
      }),
    ).toEqual([
      'contract/paths.ts imports src/lib/x.ts, but contract/ imports only contract/ and valibot, idb',
      'contract/time.ts imports temporal-polyfill, but contract/ imports only contract/ and valibot, idb',
      'contract/time.ts imports node:crypto, but contract/ imports only contract/ and valibot, idb',
    ]);
  });

  it('report one program importing another instead of going through the contract', () => {
    expect(
      reported({
        'sw/sw.ts': "import { x } from '../src/lib/x.ts';\nimport { p } from '../contract/paths.ts';",
        'src/lib/x.ts': "import { engine } from '../../sw/outbox/engine.ts';",
        'src/main.tsx': "import { app } from '../server/app.ts';",
        'server/app.ts': "import { y } from '../sw/y.ts';",
        'agent/main.ts': "import { z } from '../server/z.ts';",
      }),
    ).toEqual([
      'sw/sw.ts imports src/lib/x.ts, but the console, the worker, the server and the agent meet only in contract/',
      'src/lib/x.ts imports sw/outbox/engine.ts, but the console, the worker, the server and the agent meet only in contract/',
      'src/main.tsx imports server/app.ts, but the console, the worker, the server and the agent meet only in contract/',
      'server/app.ts imports sw/y.ts, but the console, the worker, the server and the agent meet only in contract/',
      'agent/main.ts imports server/z.ts, but the console, the worker, the server and the agent meet only in contract/',
    ]);
  });

  it('report Ark UI outside src/components/ui', () => {
    expect(
      reported({
        'src/components/ui/dialog.tsx': "import { Dialog } from '@ark-ui/react/dialog';",
        'src/features/accounts/components/picker.tsx': "import { Select } from '@ark-ui/react/select';",
      }),
    ).toEqual([
      'src/features/accounts/components/picker.tsx imports @ark-ui/react/select, but Ark UI is imported only in src/components/ui (decision 002)',
    ]);
  });

  it('report a static import of code loaded on first use, and not its import() or its types', () => {
    expect(
      reported({
        'src/lib/temporal.ts':
          "import type { Temporal } from 'temporal-polyfill';\nconst load = () => import('temporal-polyfill');",
        'src/lib/dates.ts': "import { Temporal } from 'temporal-polyfill';",
        'src/components/ui/menu.tsx': "const load = () => import('./menu-button.tsx');",
        'src/components/ui/menu-button.tsx': "import type { MenuProps } from './menu.tsx';",
        'src/features/a/components/view.tsx': "import { showToast } from '../../../components/ui/toast.tsx';",
        'src/components/ui/toast.tsx': '',
      }),
    ).toEqual([
      'src/lib/dates.ts imports temporal-polyfill, but the date polyfill, menus, dialogs and toasts are loaded on first use, never imported (decision 025)',
      'src/features/a/components/view.tsx imports src/components/ui/toast.tsx, but the date polyfill, menus, dialogs and toasts are loaded on first use, never imported (decision 025)',
    ]);
  });

  it('have a name each, since the name is what a failure shows', () => {
    const names = LAYER_RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
