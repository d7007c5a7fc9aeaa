import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { CONSOLE_BASE_PATH } from './contract/paths.ts';

const apiTarget = process.env.API_ORIGIN ?? 'http://localhost:8080';

export default defineConfig({
  base: `${CONSOLE_BASE_PATH}/`,
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Loaders travel with their screen: what a loader imports (schemas, query options) is then
      // fetched on the way to that screen instead of with the first page.
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader', 'component'],
          ['pendingComponent', 'errorComponent', 'notFoundComponent'],
        ],
      },
      routesDirectory: './src/routes',
      generatedRouteTree: './src/routeTree.gen.ts',
    }),
    react(),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    lingui(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      },
    }),
  ],
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Every screen needs the framework; one chunk for it compresses better than the dozen
        // fragments the default splitting makes, which keeps the sign-in page within its budget.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|@lingui[\\/](core|react)|valibot)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/account/ui-api': apiTarget,
      '/account/api': apiTarget,
      '/imauth': apiTarget,
      '/certificate-authority': apiTarget,
    },
  },
});
