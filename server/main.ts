import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { apiPaths, SETUP_LICENCE_PATH } from '../contract/paths.ts';
import { createApp } from './app.ts';
import { createCheckpointScheduler, loadCheckpointSigner } from './audit/checkpoints.ts';
import { createBulkImportRunner } from './bulk-import/runner.ts';
import { ensureCertificateAuthorities } from './ca/bootstrap.ts';
import { createCrlScheduler } from './ca/crl-schedule.ts';
import { closeCaKeyStores } from './ca/custody.ts';
import { ensureAgentPackages } from './client-tools/publish.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrator.ts';
import { trustProxyWarning } from './http/trusted-proxies.ts';
import { loadServerCatalogs } from './i18n/catalog.ts';
import { licenceCommand } from './licence/first-start.ts';
import { findCurrentLicence } from './licence/store.ts';
import { createMailDispatcher } from './mail/dispatcher.ts';
import { createMailTransport } from './mail/transport.ts';

/** How long an idle kept-alive connection stays open: longer than the minute clients and proxies keep one. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningServer {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Opens and migrates the database, then serves the platform API and the console, and sends the
 * outbox's mail and runs bulk user-creation jobs from this process too.
 */
export async function startServer(env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const config = loadConfig(env);
  const database = await openDatabase(config);
  await migrateToLatest(database.db);
  const now = () => new Date();
  // The platform CA (decision 019): created once, by whichever process starts first.
  const cas = await ensureCertificateAuthorities({ db: database.db, config, now });
  const crlScheduler = createCrlScheduler({ db: database.db, config, now });
  // Signs the audit chain's head at intervals with this process's key (decision 023).
  const checkpoints = createCheckpointScheduler(
    database.db,
    await loadCheckpointSigner(database.db, config, now),
    now,
  );
  // The client-tools catalogue offers the agent this server runs from, built before anyone asks.
  await ensureAgentPackages(config.clientToolsDir);
  // Read before listening: a catalog that does not compile stops the start, not a later send.
  const catalogs = await loadServerCatalogs();
  const mail = createMailDispatcher({
    db: database.db,
    config,
    transport: createMailTransport(config),
    catalogs,
    now,
  });
  const bulkImport = createBulkImportRunner({ db: database.db, now, mail });
  const app = createApp({ db: database.db, config, now, mail: { nudge: mail.nudge }, bulkImport });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () =>
      resolve(listening),
    );
    listening.once('error', reject);
  });
  // Node closes an idle kept-alive connection after 5 s; a client sending on it at that moment gets a
  // reset, and browsers do not retry a POST. Clients and proxies keep idle connections for about a
  // minute, so the server keeps them a little longer and is not the side that closes first.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  }
  const url = `http://${config.host}:${config.port}`;
  console.info(`Trust console at ${url}/account (API reference ${url}${apiPaths.apiReference})`);
  const proxyWarning = trustProxyWarning(config.trustProxy);
  if (proxyWarning !== null) console.warn(proxyWarning);
  if (config.smtpUrl !== null && !config.publicUrlConfigured) {
    console.warn(
      `SMTP_URL is set but PUBLIC_URL is not: links in mail point to ${config.publicUrl}. Set PUBLIC_URL to the address users open the console at.`,
    );
  }
  if (config.smtpUrl === null) {
    console.info(`No SMTP_URL is set: mail is written to ${config.dataDir}/mail as .eml files.`);
  }
  console.info(
    `Certificate authority: ${cas.issuing.subject} (${cas.issuing.key_algorithm}, ${config.caCustody.kind === 'pkcs11' ? `keys on PKCS#11 token "${config.caCustody.tokenLabel}"` : 'keys sealed under the key-encryption key'}).`,
  );
  mail.start();
  bulkImport.start();
  crlScheduler.start();
  checkpoints.start();
  if ((await findCurrentLicence(database.db)) === undefined) {
    console.info(
      `No licence is installed. Create one with:\n  ${licenceCommand(config.dataDir)}\nthen paste it at ${url}${SETUP_LICENCE_PATH}`,
    );
  }

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    // The message being sent finishes before the database closes under it.
    stopping ??= Promise.all([
      new Promise<void>((resolve) => server.close(() => resolve())),
      mail.stop(),
      bulkImport.stop(),
      crlScheduler.stop(),
      checkpoints.stop(),
    ])
      .then(() => closeCaKeyStores())
      .then(() => database.close());
    return stopping;
  };
  return { url, stop };
}

/**
 * Runs until SIGINT or SIGTERM, then lets requests and the mail in flight finish and closes the
 * database.
 */
export async function runServer(): Promise<void> {
  const running = await startServer();
  const shutDown = (signal: NodeJS.Signals) => {
    console.info(`${signal} received, shutting down.`);
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutDown);
  process.once('SIGTERM', shutDown);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runServer().catch((error: unknown) => {
    console.error('The server could not start:', error);
    process.exit(1);
  });
}
