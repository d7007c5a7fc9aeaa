import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Route } from '@playwright/test';

/** A change the service worker sent to the server, with the answer the server gave it. */
export interface SentChange {
  method: string;
  path: string;
  idempotencyKey: string | null;
  ifMatch: string | null;
  body: unknown;
  /** The claims of the bearer token it carried. */
  token: { sub: string; iat: number; exp: number } | null;
  status: number;
  /** The server answered with the stored answer of an earlier request with the same key. */
  replayed: boolean;
  /** The server answered, and the connection failed before the answer reached the browser. */
  answerLost: boolean;
}

export interface WatchOptions {
  /** How many of the first answers never reach the browser: the network goes down as each is lost. */
  loseAnswers?: number;
}

function claimsOf(authorization: string | undefined): SentChange['token'] {
  const payload = authorization?.match(/^Bearer [^.]+\.([^.]+)\./)?.[1];
  if (!payload) return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SentChange['token'];
}

function bodyOf(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Every change the service worker sends to `paths` (PUT, POST, DELETE), in the order the server
 * received them. The request goes to the real server from the test runner, so it commits as it
 * would; its answer is handed to the worker, or dropped after the server has it (`loseAnswers`), as
 * a connection that fails on the way back. Reads and the pages' own requests pass untouched.
 *
 * Playwright serves a routed request even while the context is offline, so the connection is cut
 * through `setOffline` here, which fails every request to `paths` as the browser would.
 */
export class WorkerNetwork {
  readonly sent: SentChange[] = [];
  /**
   * Changes the server refused because the token they carried had expired by the time they
   * arrived. The console renews its token and sends them again; on a slow machine a story's offline
   * spell can outlast the short token lifetime of the scenarios' server, so these are kept apart
   * from `sent`, whose order and versions the stories check.
   */
  readonly refusedForExpiredToken: SentChange[] = [];
  #offline = false;
  #toLose: number;

  private constructor(
    private readonly context: BrowserContext,
    options: WatchOptions,
  ) {
    this.#toLose = options.loseAnswers ?? 0;
  }

  static async watch(
    context: BrowserContext,
    paths: readonly string[],
    options: WatchOptions = {},
  ): Promise<WorkerNetwork> {
    const network = new WorkerNetwork(context, options);
    await context.route(
      (url) => paths.includes(url.pathname),
      (route) => network.#handle(route),
    );
    return network;
  }

  async setOffline(offline: boolean): Promise<void> {
    this.#offline = offline;
    await this.context.setOffline(offline);
  }

  /** What the server answered to each change, in the order it received them. */
  answers() {
    return this.sent.map(({ method, path, status, replayed, answerLost }) => ({
      method,
      path,
      status,
      replayed,
      answerLost,
    }));
  }

  async #handle(route: Route): Promise<void> {
    if (this.#offline) return route.abort('internetdisconnected');
    const request = route.request();
    if (request.serviceWorker() === null || request.method() === 'GET') return route.fallback();
    const response = await route.fetch({ maxRedirects: 0 });
    // The server checked the token between the request and now.
    const answeredAt = Date.now();
    const headers = request.headers();
    const token = claimsOf(headers.authorization);
    const change: SentChange = {
      method: request.method(),
      path: new URL(request.url()).pathname,
      idempotencyKey: headers['idempotency-key'] ?? null,
      ifMatch: headers['if-match'] ?? null,
      body: bodyOf(request.postData()),
      token,
      status: response.status(),
      replayed: response.headers()['idempotency-replayed'] === 'true',
      answerLost: this.#toLose > 0,
    };
    if (change.status === 401 && token !== null && token.exp * 1000 <= answeredAt) {
      this.refusedForExpiredToken.push({ ...change, answerLost: false });
      return route.fulfill({ response });
    }
    this.sent.push(change);
    if (!change.answerLost) return route.fulfill({ response });
    this.#toLose -= 1;
    // The network goes down after the server has answered and before the answer arrives.
    await this.setOffline(true);
    return route.abort('connectionreset');
  }
}

/** The built worker the scenarios' server serves (`CONSOLE_DIST_DIR` of playwright.config.ts's server). */
const BUILT_WORKER = path.resolve('dist/console/sw.js');

/**
 * A new build of the service worker is deployed: the server's `sw.js` gets one more line, so the
 * browser's next update check finds a script that differs byte for byte and installs it beside the
 * active one, as after a deployment. The browser fetches the script itself, past Playwright's
 * routing, so the file is changed where the server reads it. Returns the undeploy.
 */
export function deployNewWorkerBuild(buildId: string): () => void {
  const built = readFileSync(BUILT_WORKER);
  writeFileSync(BUILT_WORKER, Buffer.concat([built, Buffer.from(`\n// build ${buildId}\n`)]));
  return () => writeFileSync(BUILT_WORKER, built);
}
