import { type ImportEdge, packageName } from './import-graph.ts';

/**
 * The layering rules of the repository (ARCHITECTURE.md, docs/decisions/002-console-structure.md)
 * as checks on single imports. Type-only imports count: a type from another feature couples the two
 * as much as a function does.
 */
export interface LayerRule {
  /** The rule as a reviewer would state it; the test's name and the start of its message. */
  name: string;
  breaks: (edge: ImportEdge) => boolean;
}

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** The programs of the repository; each reaches another only through `contract/`. */
const PROGRAMS = ['src', 'sw', 'server', 'agent'] as const;

/**
 * Packages the contract may use: it is imported by the console, the worker, the server and the
 * agent alike, so anything it imports runs in all four. `idb` opens the offline database whose
 * layout the console and the worker share (`contract/offline-storage.ts`).
 */
export const CONTRACT_PACKAGES: ReadonlySet<string> = new Set(['valibot', 'idb']);

function programOf(path: string): string | null {
  const top = path.split('/')[0] ?? '';
  return (PROGRAMS as readonly string[]).includes(top) ? top : null;
}

function featureOf(path: string): string | null {
  return /^src\/features\/([^/]+)\//.exec(path)?.[1] ?? null;
}

function isUnder(path: string, ...folders: string[]): boolean {
  return folders.some((folder) => path.startsWith(`${folder}/`));
}

/** An import of a file in one part (a feature, a program) from a file in another part of that kind. */
function fromOnePartToAnother(partOf: (path: string) => string | null): LayerRule['breaks'] {
  return ({ from, to, kind }) => {
    const part = partOf(from);
    const imported = kind === 'file' ? partOf(to) : null;
    return part !== null && imported !== null && part !== imported;
  };
}

/**
 * Code the first screens do without until it is used (decision 025): the date polyfill, the menus,
 * the dialogs and the toasts. A static import anywhere in the console would put it back on the
 * first screen that imports it; `import()` and type-only imports are fine.
 */
export const LOADED_ON_FIRST_USE: ReadonlySet<string> = new Set([
  'temporal-polyfill',
  'src/components/ui/menu-button.tsx',
  'src/components/ui/dialog-frame.tsx',
  'src/components/ui/toast.tsx',
]);

export const LAYER_RULES: readonly LayerRule[] = [
  {
    name: 'a feature never imports another feature (decision 002)',
    breaks: fromOnePartToAnother(featureOf),
  },
  {
    name: 'src/components sits below the features and routes (decision 002)',
    breaks: ({ from, to, kind }) =>
      kind === 'file' && isUnder(from, 'src/components') && isUnder(to, 'src/features', 'src/routes'),
  },
  {
    // Components show what lib does; lib reaching up for a component (a toast) inverts that.
    name: 'src/lib sits below the components, features and routes (decision 002)',
    breaks: ({ from, to, kind }) =>
      kind === 'file' &&
      isUnder(from, 'src/lib') &&
      isUnder(to, 'src/components', 'src/features', 'src/routes'),
  },
  {
    name: `contract/ imports only contract/ and ${[...CONTRACT_PACKAGES].join(', ')}`,
    breaks: ({ from, to, kind }) =>
      isUnder(from, 'contract') &&
      (kind === 'file' ? !isUnder(to, 'contract') : !CONTRACT_PACKAGES.has(packageName(to))),
  },
  {
    name: 'the console, the worker, the server and the agent meet only in contract/',
    breaks: fromOnePartToAnother(programOf),
  },
  {
    name: 'Ark UI is imported only in src/components/ui (decision 002)',
    breaks: ({ from, to, kind }) =>
      kind === 'package' && packageName(to).startsWith('@ark-ui/') && !isUnder(from, 'src/components/ui'),
  },
  {
    name: 'the date polyfill, menus, dialogs and toasts are loaded on first use, never imported (decision 025)',
    breaks: ({ from, to, kind, typeOnly, dynamic }) =>
      isUnder(from, 'src') &&
      !typeOnly &&
      !dynamic &&
      LOADED_ON_FIRST_USE.has(kind === 'package' ? packageName(to) : to),
  },
];

export function layerViolations(
  edges: readonly ImportEdge[],
  rules: readonly LayerRule[] = LAYER_RULES,
): Violation[] {
  return rules.flatMap((rule) =>
    edges.filter((edge) => rule.breaks(edge)).map(({ from, to }) => ({ rule: rule.name, from, to })),
  );
}

/** One line a failing test prints: who imports what, and which rule that breaks. */
export function describeViolation({ rule, from, to }: Violation): string {
  return `${from} imports ${to}, but ${rule}`;
}
