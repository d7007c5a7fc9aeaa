import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { DEFAULT_CONSOLE_LOCALE } from './contract/locales.ts';
import { CONSOLE_BASE_PATH } from './contract/paths.ts';

const apiTarget = process.env.API_ORIGIN ?? 'http://localhost:8080';

/** Text the server sends compressed; images and fonts are compressed formats already, source maps are for developers. */
const PRECOMPRESSED_FILES = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Smaller files gain less than the headers that announce the coding. */
const PRECOMPRESS_MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, at the
 * highest settings, which are too slow to run per request; server/http/console-static.ts sends the
 * copy the browser accepts. Runs after the service worker is built, so sw.js gets its copies too.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  return {
    name: 'trust-console:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await readdir(outDir, { recursive: true })).filter((file) =>
          PRECOMPRESSED_FILES.test(file),
        );
        await Promise.all(
          files.map(async (file) => {
            const content = await readFile(path.join(outDir, file));
            if (content.byteLength < PRECOMPRESS_MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
                },
              }),
              gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
            ]);
            await Promise.all([
              writeFile(path.join(outDir, `${file}.br`), br),
              writeFile(path.join(outDir, `${file}.gz`), gz),
            ]);
          }),
        );
      },
    },
  };
}

/**
 * The default language's public catalog is loaded by the entry before the first render, through a
 * dynamic import the browser would only discover once the entry has run: preloaded beside the entry
 * instead, it arrives in the same round trip (docs/decisions/026-start-up-round-trips.md).
 */
function preloadDefaultCatalog(): Plugin {
  // By its source, not its file name: `locale-en-public-<hash>` and `locale-en-public-pages-<hash>`
  // cannot be told apart by a pattern, since a hash may hold a dash.
  const catalog = `/src/locales/${DEFAULT_CONSOLE_LOCALE}/public.po`;
  return {
    name: 'preload-default-catalog',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) => {
        const file = Object.values(bundle ?? {}).find(
          (output) =>
            output.type === 'chunk' && output.facadeModuleId?.replaceAll('\\', '/').endsWith(catalog),
        )?.fileName;
        if (!file) throw new Error(`No ${DEFAULT_CONSOLE_LOCALE} public catalog in the build.`);
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${CONSOLE_BASE_PATH}/${file}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

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
    preloadDefaultCatalog(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The console registers the worker itself (src/lib/service-worker.ts) and asks before it
      // activates a new build; see docs/decisions/013-offline-console.md.
      injectRegister: false,
      // The icons are already in globPatterns; listing them again would precache each twice.
      includeManifestIcons: false,
      manifest: {
        name: 'Trust console',
        short_name: 'Trust console',
        description:
          'Administration of accounts, organizations, sign-in methods and device certificates of the trust platform.',
        lang: 'en',
        start_url: `${CONSOLE_BASE_PATH}/`,
        scope: `${CONSOLE_BASE_PATH}/`,
        display: 'standalone',
        // --color-primary and --color-bg of src/styles/tokens.css (light theme).
        theme_color: '#1d4ed8',
        background_color: '#f5f7fa',
        icons: [
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: 'icon-maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // Catalogs of the languages other than English are cached when first used (sw/shell.ts):
        // a user needs one language, not eight. The client-certificate key material (pkijs and
        // @peculiar/x509, ~150 KB gzip) is loaded when a certificate is generated, which needs the
        // server anyway: it is never needed offline.
        globIgnores: ['**/assets/locale-!(en)-*.js', '**/assets/key-material-*.js'],
      },
    }),
    precompress(),
  ],
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Catalog chunks carry their language in the name, so the service worker can tell them apart.
        chunkFileNames: (chunk) => {
          const catalog = /[\\/]src[\\/]locales[\\/]([^\\/]+)[\\/]([\w-]+)\.po$/.exec(
            chunk.facadeModuleId ?? '',
          );
          return catalog ? `assets/locale-${catalog[1]}-${catalog[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
        // Every screen needs the framework; one chunk for it compresses better than the dozen
        // fragments the default splitting makes, which keeps the sign-in page within its budget.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|store|react-store)|@lingui[\\/](core|react)|valibot)[\\/]/,
            },
            {
              // The query library arrives with the first secure screen (decision 015) in one chunk,
              // not the ten fragments its module graph splits into: one compresses better.
              name: 'query',
              test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/,
            },
            {
              // The console's own modules every page loads, the sign-in page's included: the form kit
              // and its parts, the error texts, the language and permission constants, the identity
              // schemas and the lists' address parameters. A dozen small chunks compress worse than one
              // (decision 015's budget).
              name: 'shared',
              test: /src[\\/](components[\\/](ui[\\/](alert|button|field|form)\.tsx|list[\\/]list-search\.ts)|lib[\\/](form[\\/]use-form|error-messages|validation-messages|locales)\.ts)$|contract[\\/](locales|permissions|sort-columns|schemas[\\/](profile|identity))\.ts$/,
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
