import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, readSources } from './import-graph.ts';
import { describeViolation, LAYER_RULES, layerViolations } from './layers.ts';

/**
 * The repository's own imports against its layering rules. A failure names the importing file, the
 * imported one and the rule; the cure is to move what both need below them (lib/, components/,
 * contract/), not to add an exception here.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const sources = readSources(root, ['src', 'sw', 'contract', 'server', 'agent']);
const edges = importGraph(sources);

describe('imports of the console, the worker, the contract, the server and the agent', () => {
  it('resolve every relative import of a module to a file that was read', () => {
    // Otherwise a rule would compare paths the scanner made up and find nothing to report.
    const unresolved = edges.filter(
      (edge) => edge.kind === 'file' && /\.tsx?$/.test(edge.to) && !sources.has(edge.to),
    );
    expect(unresolved.map(({ from, to }) => `${from} imports ${to}, which is not there`)).toEqual([]);
    expect(edges.length).toBeGreaterThan(sources.size);
  });

  it('form no import cycle', () => {
    expect(importCycles(edges).map((cycle) => `import cycle: ${cycle.join(' → ')}`)).toEqual([]);
  });

  it.each(LAYER_RULES.map((rule) => [rule.name, rule]))('keep the rule: %s', (_name, rule) => {
    expect(layerViolations(edges, [rule]).map(describeViolation)).toEqual([]);
  });

  it('leave the router out of what the entry loads before its first screen (decision 030)', () => {
    // The sign-in page is drawn from the entry's static imports; the router loads on first use.
    const reached = new Map<string, string>([['src/main.tsx', 'src/main.tsx']]);
    const pending = ['src/main.tsx'];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      for (const edge of edges) {
        if (edge.from !== file || edge.typeOnly || edge.dynamic || reached.has(edge.to)) continue;
        reached.set(edge.to, file);
        if (edge.kind === 'file') pending.push(edge.to);
      }
    }
    const routerParts = [...reached].filter(
      ([to]) =>
        to.startsWith('@tanstack/react-router') ||
        to === 'src/router.ts' ||
        (to.startsWith('src/routes/') && !to.startsWith('src/routes/-')),
    );
    expect(routerParts.map(([to, from]) => `${from} imports ${to}`)).toEqual([]);
  });
});
