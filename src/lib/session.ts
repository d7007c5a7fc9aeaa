import { createContext, useContext } from 'react';
import type { OutboxCommand } from '../../contract/outbox.ts';
import { apiPaths } from '../../contract/paths.ts';
import {
  SESSION_HINT_COOKIE,
  type TokenResponse,
  tokenResponseSchema,
} from '../../contract/schemas/identity.ts';
import { clearAccessToken, getAccessToken, setAccessToken } from './access-token.ts';
import { ApiError, apiRequest } from './api-client.ts';

/** setTimeout cannot wait longer than 2^31-1 ms; a later expiry is re-checked when that fires. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * The soonest a renewal is planned after a token arrives. A token the server says is already expired
 * (or a server lying about lifetimes) must not turn the timer into a loop of refresh requests.
 */
export const REFRESH_FLOOR_MS = 10_000;
/**
 * Where the session of this page stands:
 * - `signed-out`: no session; the pages before sign-in.
 * - `online`: a token from the server, renewed before it expires.
 * - `offline`: no token, the server out of reach; the session may still be open on the server, and the
 *   offline support shows the user's cached screens until a renewal reaches it.
 * - `ending`: the user signed out and the server session is being ended; nothing may revive it.
 */
export type SessionState = 'signed-out' | 'online' | 'offline' | 'ending';

/**
 * What happens to a session: a sign-in, a renewal's outcome, the user signing out, and the end of
 * the page's session (its cached data dropped).
 */
export type SessionEvent = 'signed-in' | 'renewed' | 'unreachable' | 'refused' | 'signing-out' | 'ended';

/**
 * Every allowed move; an event not listed for a state leaves it as it is. The one that matters most
 * is what is missing: a renewal that answers while the user is signing out does not bring the
 * session back (`ending` has no `renewed`), so the sign-in page never takes it for one still open.
 */
const TRANSITIONS: Readonly<Record<SessionState, Partial<Record<SessionEvent, SessionState>>>> = {
  'signed-out': { 'signed-in': 'online', renewed: 'online', unreachable: 'offline', 'signing-out': 'ending' },
  online: {
    'signed-in': 'online',
    renewed: 'online',
    unreachable: 'offline',
    refused: 'signed-out',
    'signing-out': 'ending',
    ended: 'signed-out',
  },
  offline: {
    'signed-in': 'online',
    renewed: 'online',
    refused: 'signed-out',
    'signing-out': 'ending',
    ended: 'signed-out',
  },
  ending: { 'signed-in': 'online', ended: 'signed-out' },
};

export function nextSessionState(state: SessionState, event: SessionEvent): SessionState {
  return TRANSITIONS[state][event] ?? state;
}

type SessionListener = () => void;

/**
 * What the page does when the session ends, is lost or finds no server; given once, when the
 * controller is made.
 */
export interface SessionListeners {
  /** The session is over: drop every cached server answer (B-25). */
  ended: SessionListener;
  /** The session is gone without the user asking (the server refused a renewal): lead to sign-in. */
  lost: SessionListener;
  /**
   * A planned renewal found no server: whether the offline support carries on from its cache (it
   * does once the secure layout has started it); if not, the session is lost.
   */
  carriesOnOffline: () => boolean;
  /** Destroys what the browser keeps of the session (its storage key first, then the data). */
  closeOffline: (keepOutbox: boolean) => Promise<void>;
}

/** Told of every event the session meets, with where it stands after it and where it stood before. */
export type SessionWatcher = (state: SessionState, previous: SessionState) => void;

/**
 * `refused`: the server answered that there is no session (sign in again); `unreachable`: no answer,
 * or the server failing (5xx), which says nothing about the session.
 */
export type RefreshOutcome = 'renewed' | 'refused' | 'unreachable';

const REFRESH_LOCK = 'trust-console.refresh';

/**
 * How long a refresh that brought no session (refused, or no server) is taken at its word by the
 * guards of a page start. A cold visit to a secure address asks the cookie in the secure layout and is
 * sent on to sign-in, whose guard would otherwise ask it again, one more round trip before the form.
 * Short, because another tab may sign in meanwhile, or the network come back: after it the cookie is
 * asked again.
 */
export const NO_SESSION_HOLDS_MS = 30_000;

/**
 * Set while a sign-out has not reached the server (made offline, or the server failed): the session
 * and its HttpOnly refresh cookie are still valid, and the next start must end them instead of
 * signing the user back in. In local storage, which every tab and the next visit share.
 */
const SIGN_OUT_PENDING_KEY = 'trust-console.sign-out-pending';

function signOutPending(): boolean {
  try {
    return localStorage.getItem(SIGN_OUT_PENDING_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * Whether the browser holds the readable hint the server sets and clears with the HttpOnly refresh
 * cookie. Without it there is no refresh cookie to exchange, so a page start needs no round trip to
 * learn that there is no session.
 */
export function holdsRefreshCookie(): boolean {
  const names = [SESSION_HINT_COOKIE, `__Secure-${SESSION_HINT_COOKIE}`];
  return document.cookie.split(';').some((entry) => names.includes(entry.trim().split('=')[0] ?? ''));
}

function setSignOutPending(pending: boolean): void {
  try {
    if (pending) localStorage.setItem(SIGN_OUT_PENDING_KEY, '1');
    else localStorage.removeItem(SIGN_OUT_PENDING_KEY);
  } catch {
    // Storage refused (private mode, quota): nothing better can be kept.
  }
}

/**
 * How long a renewal that got no answer waits before asking once more. The server may have renewed
 * and the answer, with the new cookie, been lost on the way; it answers the same client presenting
 * the old cookie again within seconds with the same successor (decision 003, "A lost answer is not a
 * theft"), where later it would take the old cookie for a stolen copy and end the session.
 */
export const LOST_RENEWAL_RETRY_MS = 1_000;

function requestRenewal() {
  return apiRequest('POST', apiPaths.identity.refresh, {
    body: {},
    schema: tokenResponseSchema,
    sessionCheck: false,
  });
}

async function exchangeRefreshCookie() {
  try {
    return await requestRenewal();
  } catch (error) {
    if (outcomeOf(error) !== 'unreachable' || globalThis.navigator?.onLine === false) throw error;
    await new Promise((resolve) => setTimeout(resolve, LOST_RENEWAL_RETRY_MS));
    return requestRenewal();
  }
}

function exchangeInTurn() {
  return typeof navigator !== 'undefined' && navigator.locks
    ? navigator.locks.request(REFRESH_LOCK, exchangeRefreshCookie)
    : exchangeRefreshCookie();
}

function outcomeOf(error: unknown): Exclude<RefreshOutcome, 'renewed'> {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? 'refused' : 'unreachable';
}

/**
 * How long a token is valid from now. The server states it (`expires_in`); only a server that does
 * not is read by its `expires_at` against this computer's clock, which can be minutes off the
 * server's: that is why the floor exists.
 */
function lifetimeMs(tokens: TokenResponse): number {
  if (tokens.expires_in !== undefined) return tokens.expires_in * 1000;
  return Date.parse(tokens.expires_at) - Date.now();
}

/** Signs out the session with the token in memory; true once the server has ended it. */
async function logOut(): Promise<boolean> {
  if (getAccessToken() === null) return false;
  return apiRequest('POST', apiPaths.identity.logout, { sessionCheck: false }).then(
    () => true,
    () => false,
  );
}

/**
 * The page's session with the platform, made once by `main.tsx` and handed to the routes in the
 * router context and to components by `SessionProvider` (`useSession`). It owns the access token (kept in `access-token.ts`'s
 * memory, which only it writes and the API client reads), its renewal, the sign-out, and the
 * hand-over of the token to the service worker; its state moves by `nextSessionState` alone.
 */
export class SessionController {
  #state: SessionState = 'signed-out';
  #refreshTimer: ReturnType<typeof setTimeout> | null = null;
  #refreshInFlight: Promise<RefreshOutcome> | null = null;
  readonly #watchers = new Set<SessionWatcher>();
  // The service worker replays the outbox of the signed-in user with that user's token, which it
  // keeps in memory only: the controller posts it whenever it changes or the worker does.
  #tokenOwner: string | null = null;
  #tokenExpiresAt = 0;
  #watchingWorker = false;
  /** The last refresh that brought no session, while nothing has happened to the session since. */
  #noSession: { outcome: Exclude<RefreshOutcome, 'renewed'>; at: number } | null = null;

  constructor(private readonly listeners: SessionListeners) {}

  get state(): SessionState {
    return this.#state;
  }

  /** Moves the session on; answers whether the event was taken (a move, or staying where it was allowed). */
  #dispatch(event: SessionEvent): boolean {
    const next = nextSessionState(this.#state, event);
    const previous = this.#state;
    const taken = next !== previous || TRANSITIONS[previous][event] !== undefined;
    this.#state = next;
    // Watchers hear of it once the event is fully applied (a renewal's token in memory).
    queueMicrotask(() => {
      for (const watcher of this.#watchers) watcher(next, previous);
    });
    return taken;
  }

  /**
   * Follows the session for as long as the page lives: every event, even one that leaves it where it
   * was (a renewal that still finds no server while offline).
   */
  watch(watcher: SessionWatcher): void {
    this.#watchers.add(watcher);
  }

  /** The session is gone without the user asking (the server refused a renewal): lead to sign-in. */
  reportLost(): void {
    this.listeners.lost();
  }

  /**
   * Posts the current token to the worker. The browser stops an idle worker and its memory with it,
   * so pages post again before every request to sync, not only when the token changes.
   */
  postToWorker(): void {
    const token = getAccessToken();
    const controller = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
    if (!this.#tokenOwner || !token || !controller) return;
    const command: OutboxCommand = {
      type: 'session',
      userId: this.#tokenOwner,
      accessToken: token,
      expiresAt: this.#tokenExpiresAt,
    };
    controller.postMessage(command);
  }

  /**
   * Names the user the current token belongs to (known once the profile is), hands the token to the
   * service worker now and after every refresh or change of worker; `null` stops the hand-over.
   */
  handOffTokenTo(userId: string | null): void {
    this.#tokenOwner = userId;
    if (!this.#watchingWorker && typeof navigator !== 'undefined' && navigator.serviceWorker) {
      this.#watchingWorker = true;
      navigator.serviceWorker.addEventListener('controllerchange', () => this.postToWorker());
    }
    this.postToWorker();
  }

  /** Runs the offline support's teardown; it never fails the sign-out it belongs to. */
  async closeOffline(keepOutbox: boolean): Promise<void> {
    await this.listeners.closeOffline(keepOutbox).catch(() => undefined);
  }

  #cancelRefresh(): void {
    if (this.#refreshTimer !== null) clearTimeout(this.#refreshTimer);
    this.#refreshTimer = null;
  }

  /**
   * One timer, set for the moment the token expires (B-22), never sooner than the floor; every new
   * token replaces it. A renewal that got no answer leaves the session offline, where the offline
   * support tries again with growing waits (`lib/offline/secure-session.ts`).
   */
  #scheduleRefresh(delayMs: number): void {
    this.#cancelRefresh();
    const delay = Math.min(LONGEST_TIMER_MS, Math.max(REFRESH_FLOOR_MS, delayMs));
    this.#refreshTimer = setTimeout(() => {
      void this.refresh().then((outcome) => {
        if (outcome === 'renewed') return;
        if (outcome !== 'unreachable' || !this.listeners.carriesOnOffline()) this.listeners.lost();
      });
    }, delay);
  }

  #applyTokens(tokens: TokenResponse): void {
    const lifetime = lifetimeMs(tokens);
    // Kept on this computer's clock, like every comparison made with it (the worker's included).
    const expiresAt = Date.now() + lifetime;
    setAccessToken(tokens.access_token, expiresAt);
    this.#tokenExpiresAt = expiresAt;
    this.#scheduleRefresh(lifetime);
    this.postToWorker();
  }

  /**
   * Keeps the token of a successful sign-in (B-19) and plans its renewal. A sign-in may be another
   * user's: the token is handed to the service worker once the secure layout knows whose it is.
   */
  start(tokens: TokenResponse): void {
    this.#dispatch('signed-in');
    this.#noSession = null;
    this.#tokenOwner = null;
    // A new sign-in replaced the refresh cookie a sign-out left behind: nothing is left to revoke.
    setSignOutPending(false);
    this.#applyTokens(tokens);
  }

  /** Stops using the token at once; the cached data goes with `end` once the screen has left. */
  forgetToken(): void {
    this.#cancelRefresh();
    clearAccessToken();
  }

  /**
   * Drops the token, the timer, what the browser keeps of the session (queued changes stay, held for
   * the user's next sign-in) and, through `ended`, all client state (B-25).
   */
  async end(): Promise<void> {
    this.forgetToken();
    await this.closeOffline(true);
    this.#tokenOwner = null;
    this.#dispatch('ended');
    this.listeners.ended();
  }

  /**
   * Exchanges the HttpOnly refresh cookie for a new access token. The server treats a reused refresh
   * token as theft, so two exchanges must never race: callers in this tab share one request, and tabs
   * take turns through a Web Lock, the later one sending the cookie the earlier one received.
   */
  refresh(): Promise<RefreshOutcome> {
    this.#refreshInFlight ??= (signOutPending() ? this.#endLeftSession() : this.#renew()).finally(() => {
      this.#refreshInFlight = null;
    });
    return this.#refreshInFlight;
  }

  #renew(): Promise<RefreshOutcome> {
    return exchangeInTurn()
      .then((tokens): RefreshOutcome => {
        // Signing out meanwhile: the new token is dropped, and its session ends with the sign-out.
        if (!this.#dispatch('renewed')) return 'refused';
        this.#noSession = null;
        this.#applyTokens(tokens);
        return 'renewed';
      })
      .catch((error: unknown) => {
        this.forgetToken();
        const outcome = outcomeOf(error);
        this.#dispatch(outcome);
        this.#noSession = { outcome, at: Date.now() };
        return outcome;
      });
  }

  /**
   * Ends the session a sign-out left on the server: its refresh cookie is exchanged once and that
   * session signed out, so the cookie can no longer sign anyone in. `refused` once it is over (or the
   * server had already ended it), `unreachable` while the server cannot be asked.
   */
  async #endLeftSession(): Promise<RefreshOutcome> {
    let outcome: Exclude<RefreshOutcome, 'renewed'> = 'refused';
    try {
      const tokens = await exchangeInTurn();
      setAccessToken(tokens.access_token, Date.now() + lifetimeMs(tokens));
      if (!(await logOut())) outcome = 'unreachable';
    } catch (error) {
      outcome = outcomeOf(error) === 'unreachable' ? 'unreachable' : 'refused';
    }
    this.forgetToken();
    if (outcome === 'refused') setSignOutPending(false);
    // A page start that cannot end the session is as offline as one that cannot renew it.
    this.#dispatch(outcome);
    this.#noSession = { outcome, at: Date.now() };
    return outcome;
  }

  /**
   * Whether this page has a session, for the guards of a page start: the token in memory, else the
   * refresh cookie (B-26, B-29), whose answer of moments ago that there is none is believed without
   * asking again (`NO_SESSION_HOLDS_MS`). Renewals of a running session call `refresh`, which always
   * asks.
   */
  check(): Promise<RefreshOutcome> {
    if (getAccessToken() !== null) return Promise.resolve('renewed');
    // No refresh cookie: refused without asking. Offline the question still goes out, as before: its
    // failure lets the last user's cached console open. A sign-out still pending is ended first.
    if (!holdsRefreshCookie() && navigator.onLine && !signOutPending()) return Promise.resolve('refused');
    const known = this.#noSession;
    if (this.#refreshInFlight === null && known && Date.now() - known.at < NO_SESSION_HOLDS_MS) {
      return Promise.resolve(known.outcome);
    }
    return this.refresh();
  }

  /** On a secure page: the token in memory, or one from the refresh cookie (B-26, B-29). */
  async ensure(): Promise<boolean> {
    return (await this.check()) === 'renewed';
  }

  /**
   * Revokes the session on the server. A failure is not the user's problem: they asked to leave, and
   * the caller ends the session here whatever the answer. Until the server has ended it, the sign-out
   * stays pending: the next start ends the session first instead of signing the user back in.
   */
  async revoke(): Promise<void> {
    this.#dispatch('signing-out');
    setSignOutPending(true);
    if (await logOut()) setSignOutPending(false);
    // No token (an offline start, or it expired offline) or a refused one: end it with the cookie.
    else await this.#endLeftSession();
    // The token is dead now: the sign-in page must not take it for a session still open.
    this.forgetToken();
  }
}

const SessionContext = createContext<SessionController | null>(null);

/** Gives the page's one session to the components below, with the router or before it (main.tsx). */
export const SessionProvider = SessionContext.Provider;

/** The page's session, for components (sign-in, the header's sign-out); guards read the router context. */
export function useSession(): SessionController {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a SessionProvider above it');
  return session;
}
