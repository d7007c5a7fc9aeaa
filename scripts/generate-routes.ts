/**
 * Writes src/routeTree.gen.ts from src/routes without a Vite build, so `tsc` can check a fresh clone.
 * Uses the generator of the router plugin with the same options as vite.config.ts.
 */
import { fileURLToPath } from 'node:url';
import { Generator, getConfig } from '@tanstack/router-generator';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = getConfig(
  {
    target: 'react',
    autoCodeSplitting: true,
    routesDirectory: './src/routes',
    generatedRouteTree: './src/routeTree.gen.ts',
    quoteStyle: 'single',
  },
  root,
);

await new Generator({ config, root }).run();
