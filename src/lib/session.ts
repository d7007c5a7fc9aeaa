import type { OutboxCommand } from '../../contract/outbox.ts';
import { apiPaths } from '../../contract/paths.ts';
import { type TokenResponse, tokenResponseSchema } from '../../contract/schemas/identity.ts';
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

let state: SessionState = 'signed-out';

/** Moves the session on; answers whether the event was taken (a move, or staying where it was allowed). */
function dispatch(event: SessionEvent): boolean {
  const next = nextSessionState(state, event);
  const taken = next !== state || TRANSITIONS[state][event] !== undefined;
  state = next;
  return taken;
}

export function sessionState(): SessionState {
  return state;
}

let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let refreshInFlight: Promise<RefreshOutcome> | null = null;

type SessionListener = () => void;
let onEnded: SessionListener | null = null;
let onLost: SessionListener | null = null;
let onUnreachable: SessionListener | null = null;

/**
 * `ended` runs when the session is over and should drop every cached server answer; `lost` runs when
 * a scheduled refresh failed, without the user asking, and should lead to sign-in.
 */
export function configureSession(listeners: { ended: SessionListener; lost: SessionListener }): void {
  onEnded = listeners.ended;
  onLost = listeners.lost;
}

/** The session is gone without the user asking (the server refused a refresh): lead to sign-in. */
export function reportSessionLost(): void {
  onLost?.();
}

/**
 * Set by the secure layout's offline support: a scheduled refresh that could not reach the server is
 * not a lost session, the console carries on from its cache until the network returns. Without it,
 * such a refresh counts as lost, as before.
 */
export function whenRefreshUnreachable(listener: SessionListener | null): void {
  onUnreachable = listener;
}

// The service worker replays the outbox of the signed-in user with that user's token, which it keeps
// in memory only. These few lines hand it over; they import nothing of the offline support itself.
let tokenOwner: string | null = null;
let tokenExpiresAt = 0;
let watchingController = false;

/**
 * Posts the current token to the worker. The browser stops an idle worker and its memory with it,
 * so pages post again before every request to sync, not only when the token changes.
 */
export function postSessionToWorker(): void {
  const token = getAccessToken();
  const controller = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!tokenOwner || !token || !controller) return;
  const command: OutboxCommand = {
    type: 'session',
    userId: tokenOwner,
    accessToken: token,
    expiresAt: tokenExpiresAt,
  };
  controller.postMessage(command);
}

/**
 * Names the user the current token belongs to (known once the profile is), hands the token to the
 * service worker now and after every refresh or change of worker; `null` stops the hand-over.
 */
export function handOffTokenTo(userId: string | null): void {
  tokenOwner = userId;
  if (!watchingController && typeof navigator !== 'undefined' && navigator.serviceWorker) {
    watchingController = true;
    navigator.serviceWorker.addEventListener('controllerchange', postSessionToWorker);
  }
  postSessionToWorker();
}

type SessionTeardown = (keepOutbox: boolean) => Promise<void>;
let teardown: SessionTeardown | null = null;

/**
 * Registered by the offline support: destroys what this browser keeps of the session (its storage key
 * first, then the data) and tells the service worker whether to keep the user's queued changes.
 */
export function setSessionTeardown(handler: SessionTeardown | null): void {
  teardown = handler;
}

/** Runs the teardown, if any; it never fails the sign-out it belongs to. */
export async function closeOfflineSession(keepOutbox: boolean): Promise<void> {
  await teardown?.(keepOutbox).catch(() => undefined);
}

function cancelRefresh(): void {
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  refreshTimer = null;
}

/**
 * One timer, set for the moment the token expires (B-22), never sooner than the floor; every new
 * token replaces it. A renewal that got no answer hands over to the offline support, which tries
 * again with growing waits (`lib/offline/secure-session.ts`).
 */
function scheduleRefresh(delayMs: number): void {
  cancelRefresh();
  const delay = Math.min(LONGEST_TIMER_MS, Math.max(REFRESH_FLOOR_MS, delayMs));
  refreshTimer = setTimeout(() => {
    void refreshSessionOutcome().then((outcome) => {
      if (outcome === 'renewed') return;
      if (outcome === 'unreachable' && onUnreachable) onUnreachable();
      else onLost?.();
    });
  }, delay);
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

function applyTokens(tokens: TokenResponse): void {
  const lifetime = lifetimeMs(tokens);
  // Kept on this computer's clock, like every comparison made with it (the worker's included).
  const expiresAt = Date.now() + lifetime;
  setAccessToken(tokens.access_token, expiresAt);
  tokenExpiresAt = expiresAt;
  scheduleRefresh(lifetime);
  postSessionToWorker();
}

/**
 * Keeps the token of a successful sign-in (B-19) and plans its renewal. A sign-in may be another
 * user's: the token is handed to the service worker once the secure layout knows whose it is.
 */
export function startSession(tokens: TokenResponse): void {
  dispatch('signed-in');
  tokenOwner = null;
  // A new sign-in replaced the refresh cookie a sign-out left behind: nothing is left to revoke.
  setSignOutPending(false);
  applyTokens(tokens);
}

/** Stops using the token at once; the cached data goes with `endSession` once the screen has left. */
export function forgetToken(): void {
  cancelRefresh();
  clearAccessToken();
}

/**
 * Drops the token, the timer, what the browser keeps of the session (queued changes stay, held for
 * the user's next sign-in) and, through `ended`, all client state (B-25).
 */
export async function endSession(): Promise<void> {
  forgetToken();
  await closeOfflineSession(true);
  tokenOwner = null;
  dispatch('ended');
  onEnded?.();
}

const REFRESH_LOCK = 'trust-console.refresh';

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

function setSignOutPending(pending: boolean): void {
  try {
    if (pending) localStorage.setItem(SIGN_OUT_PENDING_KEY, '1');
    else localStorage.removeItem(SIGN_OUT_PENDING_KEY);
  } catch {
    // Storage refused (private mode, quota): nothing better can be kept.
  }
}

function exchangeRefreshCookie() {
  return apiRequest('POST', apiPaths.identity.refresh, {
    body: {},
    schema: tokenResponseSchema,
    sessionCheck: false,
  });
}

function exchangeInTurn() {
  return typeof navigator !== 'undefined' && navigator.locks
    ? navigator.locks.request(REFRESH_LOCK, exchangeRefreshCookie)
    : exchangeRefreshCookie();
}

/**
 * `refused`: the server answered that there is no session (sign in again); `unreachable`: no answer,
 * or the server failing (5xx), which says nothing about the session.
 */
export type RefreshOutcome = 'renewed' | 'refused' | 'unreachable';

function outcomeOf(error: unknown): RefreshOutcome {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? 'refused' : 'unreachable';
}

/**
 * Exchanges the HttpOnly refresh cookie for a new access token. The server treats a reused refresh
 * token as theft, so two exchanges must never race: callers in this tab share one request, and tabs
 * take turns through a Web Lock, the later one sending the cookie the earlier one received.
 */
export function refreshSessionOutcome(): Promise<RefreshOutcome> {
  refreshInFlight ??= (signOutPending() ? endLeftSession() : renew()).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

function renew(): Promise<RefreshOutcome> {
  return exchangeInTurn()
    .then((tokens): RefreshOutcome => {
      // Signing out meanwhile: the new token is dropped, and its session ends with the sign-out.
      if (!dispatch('renewed')) return 'refused';
      applyTokens(tokens);
      return 'renewed';
    })
    .catch((error: unknown) => {
      forgetToken();
      const outcome = outcomeOf(error);
      dispatch(outcome);
      return outcome;
    });
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
 * Ends the session a sign-out left on the server: its refresh cookie is exchanged once and that
 * session signed out, so the cookie can no longer sign anyone in. `refused` once it is over (or the
 * server had already ended it), `unreachable` while the server cannot be asked.
 */
async function endLeftSession(): Promise<RefreshOutcome> {
  let outcome: RefreshOutcome = 'refused';
  try {
    const tokens = await exchangeInTurn();
    setAccessToken(tokens.access_token, Date.now() + lifetimeMs(tokens));
    if (!(await logOut())) outcome = 'unreachable';
  } catch (error) {
    outcome = outcomeOf(error) === 'unreachable' ? 'unreachable' : 'refused';
  }
  forgetToken();
  if (outcome === 'refused') setSignOutPending(false);
  return outcome;
}

export async function refreshSession(): Promise<boolean> {
  return (await refreshSessionOutcome()) === 'renewed';
}

/** On a secure page: the token in memory, or one from the refresh cookie (B-26, B-29). */
export async function ensureSession(): Promise<boolean> {
  return getAccessToken() !== null || refreshSession();
}

/**
 * Revokes the session on the server. A failure is not the user's problem: they asked to leave, and
 * the caller ends the session here whatever the answer. Until the server has ended it, the sign-out
 * stays pending: the next start ends the session first instead of signing the user back in.
 */
export async function revokeServerSession(): Promise<void> {
  dispatch('signing-out');
  setSignOutPending(true);
  if (await logOut()) setSignOutPending(false);
  // No token (an offline start, or it expired offline) or a refused one: end it with the cookie.
  else await endLeftSession();
  // The token is dead now: the sign-in page must not take it for a session still open.
  forgetToken();
}
