import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { catalogReachProblems } from './catalog-reach.ts';

/**
 * Fails when the committed catalogs are not what `npm run i18n:extract` would write, when a locale
 * lacks a translation of a source message, or when a route draws a module whose messages are in no
 * catalog the route loads (scripts/catalog-reach.ts). Extraction runs on a copy of the catalogs, so
 * the check never edits the tree; every problem is printed as `locale: what "message"`.
 */
const root = process.cwd();
const config = getConfig({ cwd: root });
const { sourceLocale, locales } = config;
const catalogExtension = '.po';
const po = formatter();

// The copy sits under node_modules so the generated config resolves the project's packages.
mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const work = mkdtempSync(path.join(root, 'node_modules/.cache/check-catalogs-'));

/** The catalog file of `locale` for one catalog's path pattern, under `base`. */
function catalogFile(pattern: string, locale: string, base: string): string {
  return path.join(base, path.relative(root, pattern.replace('{locale}', locale)) + catalogExtension);
}

type Messages = Map<string, { message: string; translation: string; origins: string[] }>;

async function readCatalog(file: string, locale: string): Promise<Messages | null> {
  if (!existsSync(file)) return null;
  const parsed = await po.parse(readFileSync(file, 'utf8'), { locale, sourceLocale, filename: file });
  return new Map(
    Object.entries(parsed)
      .filter(([, entry]) => !entry.obsolete)
      .map(([id, entry]) => [
        id,
        {
          message: entry.message ?? id,
          translation: entry.translation ?? '',
          origins: (entry.origin ?? []).map(([origin]) => origin),
        },
      ]),
  );
}

/** A catalog of every message of the console's sources, written beside the copy: which modules say something. */
const allSourcesCatalog = (base: string) => path.join(base, 'all-sources/{locale}/messages');

function extractInto(base: string): void {
  const catalogs = [
    ...(config.catalogs ?? []).map((catalog) => ({
      ...catalog,
      path: path.join(base, path.relative(root, catalog.path)),
    })),
    { path: allSourcesCatalog(base), include: [path.join(root, 'src')] },
  ];
  const configFile = path.join(base, 'lingui.config.ts');
  writeFileSync(
    configFile,
    `import config from ${JSON.stringify(path.join(root, 'lingui.config.ts'))};\n` +
      `export default { ...config, rootDir: ${JSON.stringify(root)}, catalogs: ${JSON.stringify(catalogs)} };\n`,
  );
  const result = spawnSync(
    'npx',
    ['lingui', 'extract', '--clean', '--workers', '1', '--config', configFile],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error('lingui extract failed on the copy of the catalogs.');
  }
}

async function check(): Promise<string[]> {
  const problems: string[] = [];
  for (const catalog of config.catalogs ?? []) {
    for (const locale of locales) {
      const committed = catalogFile(catalog.path, locale, root);
      if (existsSync(committed)) cpSync(committed, catalogFile(catalog.path, locale, work));
    }
  }
  extractInto(work);

  /** Which console catalogs hold each module's messages, by the origins extraction wrote. */
  const catalogsOfModule = new Map<string, Set<string>>();
  for (const catalog of config.catalogs ?? []) {
    const sourceFile = catalogFile(catalog.path, sourceLocale, root);
    const source = await readCatalog(sourceFile, sourceLocale);
    const extracted = await readCatalog(catalogFile(catalog.path, sourceLocale, work), sourceLocale);
    for (const { origins } of extracted?.values() ?? []) {
      for (const origin of origins) {
        const catalogs = catalogsOfModule.get(origin) ?? new Set<string>();
        catalogs.add(path.basename(catalog.path));
        catalogsOfModule.set(origin, catalogs);
      }
    }
    if (!source) {
      problems.push(`${sourceLocale}: catalog ${path.relative(root, sourceFile)} is missing`);
      continue;
    }
    for (const [id, { message }] of extracted ?? []) {
      if (!source.has(id)) problems.push(`${sourceLocale}: not extracted yet "${message}"`);
    }
    for (const [id, { message }] of source) {
      if (!extracted?.has(id)) problems.push(`${sourceLocale}: no longer in the source "${message}"`);
    }
    for (const locale of locales.filter((candidate) => candidate !== sourceLocale)) {
      const file = catalogFile(catalog.path, locale, root);
      const translated = await readCatalog(file, locale);
      if (!translated) {
        problems.push(`${locale}: catalog ${path.relative(root, file)} is missing`);
        continue;
      }
      for (const [id, { message }] of source) {
        if (!translated.get(id)?.translation.trim())
          problems.push(`${locale}: no translation for "${message}"`);
      }
    }
  }
  const allSources = await readCatalog(
    `${allSourcesCatalog(work).replace('{locale}', sourceLocale)}${catalogExtension}`,
    sourceLocale,
  );
  const modulesWithMessages = new Set([...(allSources?.values() ?? [])].flatMap(({ origins }) => origins));
  problems.push(
    ...catalogReachProblems({
      root,
      routesDir: 'src/routes',
      entries: ['src/main.tsx'],
      modulesWithMessages,
      catalogsOfModule,
    }).map((problem) => `${sourceLocale}: ${problem}`),
  );
  return problems;
}

try {
  const problems = await check();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(
      `i18n:check: ${problems.length} catalog problem(s); run \`npm run i18n:extract\` and translate the messages above.`,
    );
    process.exitCode = 1;
  } else {
    console.info(`i18n:check: every message of ${locales.length} locales is extracted and translated.`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
