import { readdirSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type IndexHtmlTransformContext, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { DEFAULT_CONSOLE_LOCALE } from './contract/locales.ts';
import { apiPaths, CONSOLE_BASE_PATH } from './contract/paths.ts';
import { SIGN_IN_PREVIEW_ID, signInStartScript } from './src/features/session/sign-in-preview-script.ts';

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

/**
 * Every page start asks the setup status before its first screen (the sign-in guard, and the secure
 * layout without a token): fetched from the page's own head, its answer arrives while the scripts
 * download instead of one round trip after they have run. `crossorigin` gives the preload the mode
 * and credentials of the console's own fetch, which the browser needs to hand it over.
 */
function preloadSetupStatus(): Plugin {
  return {
    name: 'preload-setup-status',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: { rel: 'preload', as: 'fetch', crossorigin: true, href: apiPaths.setup.status },
        injectTo: 'head',
      },
    ],
  };
}

/** The part of Rolldown's chunking context the groups below read. */
interface ModuleGraph {
  getModuleInfo(
    id: string,
  ): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

const sourceFile = (file: string) => path.resolve(import.meta.dirname, file);

/** Every module the roots reach through static imports: what has to arrive before they can run. */
function staticClosure(
  graph: ModuleGraph,
  roots: readonly string[],
  without = new Set<string>(),
): Set<string> {
  const reached = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (reached.has(id) || without.has(id)) continue;
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    reached.add(id);
    pending.push(...info.importedIds);
  }
  return reached;
}

/** The parts the router's code splitting made of a route file: its screen and its loader. */
function routeScreenParts(graph: ModuleGraph, routeFile: string): string[] {
  const id = sourceFile(routeFile);
  return (graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []).filter(
    (part) => part.startsWith(`${id}?tsr-split=`) && part.includes('component'),
  );
}

/**
 * The modules the secure layout's start imports (src/routes/_secure.tsx's `beforeLoad`) and the
 * first secure screen's route files, whose screens the router splits off.
 */
const SECURE_START_IMPORTS = [
  'src/lib/query-client.ts',
  'src/lib/offline/secure-session.ts',
  'src/components/notify.ts',
];
const FIRST_SECURE_SCREEN_ROUTES = ['src/routes/_secure.tsx', 'src/routes/_secure/accounts/index.tsx'];
/** The pages before sign-in; what they share with the secure start stays out of both groups. */
const publicRoutes = () =>
  readdirSync(sourceFile('src/routes'))
    .filter((file) => file.endsWith('.tsx') && file !== '_secure.tsx' && file !== '__root.tsx')
    .map((file) => `src/routes/${file}`);

/**
 * The entry's stylesheet goes into index.html: as a file it cost a cold visit one more round trip
 * before anything was drawn, the sign-in preview included (docs/decisions/029-sign-in-preview.md).
 * A disabled link to the file stays in its place: browsers do not fetch a disabled stylesheet, and
 * Vite's loader of split chunks, which lists the file among their needs, then finds it loaded and
 * does not add it a second time. The server allows the inline sheet by its hash (`consolePagePolicy`).
 */
function inlineEntryStylesheet(): Plugin {
  return {
    name: 'trust-console:inline-entry-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, { bundle }) => {
        const link = new RegExp(
          `<link rel="stylesheet" crossorigin href="${CONSOLE_BASE_PATH}/(assets/[^"]+\\.css)">`,
        ).exec(html);
        const sheet = link?.[1] ? bundle?.[link[1]] : undefined;
        if (!link || sheet?.type !== 'asset') throw new Error('index.html links no stylesheet of the build.');
        const css = typeof sheet.source === 'string' ? sheet.source : new TextDecoder().decode(sheet.source);
        return html.replace(
          link[0],
          `<link rel="stylesheet" crossorigin href="${CONSOLE_BASE_PATH}/${link[1]}" disabled>\n    <style>${css}</style>`,
        );
      },
    },
  };
}

/** The first part of the address of each page of the secure console (`accounts`, `profile`). */
const securePages = () =>
  readdirSync(sourceFile('src/routes/_secure')).map((entry) => entry.split('.')[0] ?? '');

const SIGN_IN_PREVIEW_MARKUP = path.resolve(import.meta.dirname, 'src/features/session/sign-in-preview.html');

/** The module whose chunk is the router's start: main.tsx loads it where a visit needs the router. */
const ROUTER_MODULE = 'src/router.ts';

/**
 * The router's start as built: its chunk and the chunks that one imports, less those index.html
 * loads anyway. Empty while serving, where nothing is bundled.
 */
function routerScripts(bundle: IndexHtmlTransformContext['bundle'], html: string): string[] {
  if (!bundle) return [];
  const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const start = chunks.find((chunk) => chunk.moduleIds.includes(sourceFile(ROUTER_MODULE)));
  if (!start) throw new Error(`No chunk of the build holds ${ROUTER_MODULE}.`);
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file) || html.includes(`/${file}"`)) return;
    files.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
  };
  visit(start.fileName);
  return [...files].map((file) => `${CONSOLE_BASE_PATH}/${file}`);
}

/**
 * Writes the sign-in preview into index.html, hidden, with the script that decides whether the visit
 * starts on the sign-in page, shows the preview where it will look as drawn, and otherwise preloads
 * the router's start (docs/decisions/029-sign-in-preview.md, 030-sign-in-without-the-router.md). The
 * markup is the page's own, rendered by its test into sign-in-preview.html. After the other plugins,
 * so the script knows the build's file names and index.html's own scripts.
 */
function signInPreview(): Plugin {
  return {
    name: 'trust-console:sign-in-preview',
    transformIndexHtml: {
      order: 'post',
      handler: async (html, { bundle }) => [
        {
          tag: 'div',
          attrs: { id: SIGN_IN_PREVIEW_ID, hidden: true },
          children: await readFile(SIGN_IN_PREVIEW_MARKUP, 'utf8'),
          injectTo: 'body',
        },
        {
          tag: 'script',
          children: signInStartScript({
            securePages: securePages(),
            routerScripts: routerScripts(bundle, html),
          }),
          injectTo: 'body',
        },
      ],
    },
  };
}

// One build, one module graph: computed on the first module the groups ask about.
let startClosure: Set<string> | null = null;
let routerClosure: Set<string> | null = null;
let secureStartClosure: Set<string> | null = null;

function startModules(graph: ModuleGraph): Set<string> {
  startClosure ??= staticClosure(graph, [sourceFile('src/main.tsx')]);
  return startClosure;
}

function routerModules(graph: ModuleGraph): Set<string> {
  routerClosure ??= staticClosure(graph, [sourceFile(ROUTER_MODULE)], startModules(graph));
  return routerClosure;
}

function secureStartModules(graph: ModuleGraph): Set<string> {
  secureStartClosure ??= staticClosure(
    graph,
    [
      ...SECURE_START_IMPORTS.map(sourceFile),
      ...FIRST_SECURE_SCREEN_ROUTES.flatMap((route) => routeScreenParts(graph, route)),
    ],
    new Set([
      ...startModules(graph),
      ...routerModules(graph),
      ...staticClosure(
        graph,
        publicRoutes().flatMap((route) => routeScreenParts(graph, route)),
      ),
    ]),
  );
  return secureStartClosure;
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
    preloadSetupStatus(),
    signInPreview(),
    inlineEntryStylesheet(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The console registers the worker itself (`OfflineSupport.registerWorker`,
      // src/lib/offline/support.ts) and asks before it activates a new build; see
      // docs/decisions/013-offline-console.md.
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
              test: /node_modules[\\/](react|react-dom|scheduler|@lingui[\\/](core|react)|valibot)[\\/]/,
            },
            {
              // What the entry reaches through static imports (the route tree, the session, the form
              // kit, the lists' address schemas): one file instead of a dozen, because on a network
              // where a round trip costs 400 ms every extra file the first page waits for costs one
              // (HTTP/1.1 opens six connections) — docs/decisions/026-start-up-round-trips.md.
              name: (id, ctx) => (startModules(ctx).has(id) ? 'start' : null),
            },
            {
              // After the start's group, which keeps what the two share (a group takes the modules its
              // own import as well). The router, its route tree and the route definitions: a visit that starts on the
              // sign-in page draws it without them (docs/decisions/030-sign-in-without-the-router.md).
              name: (id, ctx) => (routerModules(ctx).has(id) ? 'router' : null),
            },
            {
              // Likewise what the first secure screen reaches from the secure layout's code, the
              // query library included; menus, dialogs, toasts and the date polyfill stay out,
              // being imported only when first used.
              name: (id, ctx) => (secureStartModules(ctx).has(id) ? 'secure-start' : null),
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
