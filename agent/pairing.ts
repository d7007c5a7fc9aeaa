import path from 'node:path';
import { newId, newNonce, pairingCode } from '../contract/trust-agent/session-crypto.ts';
import type { PairingRequest, PairingResponse } from '../contract/trust-agent/wire.ts';
import { readJsonFile, writePrivateFile } from './files.ts';

/** A pairing request waits this long for the desktop user. */
export const PAIRING_TTL_MS = 2 * 60 * 1000;
/**
 * At most this many pairings wait at once: a page cannot queue prompts without end. Past it a new
 * request is refused rather than one that waits replaced, so nobody can push the console's request
 * out of the desktop user's list by asking again and again.
 */
export const MAX_PENDING_PAIRINGS = 4;

export interface ApprovedPairing {
  origin: string;
  clientKey: string;
  approvedAt: string;
}

export type PairingStatus = 'pending' | 'approved' | 'refused' | 'expired';

export interface PendingPairing {
  id: string;
  origin: string;
  clientKey: string;
  code: string;
  status: PairingStatus;
  expiresAt: number;
}

/**
 * Shows a waiting pairing to the desktop user. A prompt that can take an answer (the terminal)
 * resolves with it, true to approve; one that only shows the code (a desktop notification, the
 * service's log) resolves null, and the user answers with `approve CODE` on the control channel.
 * `settled` aborts once the pairing is decided elsewhere or expires, so the prompt can go away.
 */
export type PairingPrompt = (pairing: PendingPairing, settled: AbortSignal) => Promise<boolean | null>;

export class PairingRefusedError extends Error {
  constructor(readonly reason: 'tooMany') {
    super('Too many pairings are waiting for approval');
  }
}

/**
 * Which console (origin and identity key) may open sessions with this agent. A new one is paired
 * only when the desktop user approves it, comparing the code the agent shows with the console's;
 * an origin of `preapprovedOrigins` is paired without asking (tests and managed installs). A
 * pairing waits for that answer, from a prompt or the control channel, until it expires: an agent
 * without a terminal (a service) refuses nothing by itself.
 */
export class Pairings {
  private approved: ApprovedPairing[] = [];
  private readonly pending = new Map<string, PendingPairing>();
  /** Aborted when a waiting pairing is settled or expires, which takes its prompts away. */
  private readonly prompted = new Map<string, { controller: AbortController; expiry: NodeJS.Timeout }>();
  private readonly file: string;

  private constructor(
    dataDir: string,
    private readonly agentKey: string,
    private readonly preapprovedOrigins: readonly string[],
    private readonly prompts: readonly PairingPrompt[],
    private readonly now: () => number,
  ) {
    this.file = path.join(dataDir, 'pairings.json');
  }

  static async open(options: {
    dataDir: string;
    agentKey: string;
    preapprovedOrigins: readonly string[];
    prompts: readonly PairingPrompt[];
    now?: () => number;
  }): Promise<Pairings> {
    const pairings = new Pairings(
      options.dataDir,
      options.agentKey,
      options.preapprovedOrigins,
      options.prompts,
      options.now ?? Date.now,
    );
    pairings.approved = await readJsonFile<ApprovedPairing[]>(pairings.file, []);
    return pairings;
  }

  isPaired(origin: string, clientKey: string): boolean {
    return this.approved.some((pairing) => pairing.origin === origin && pairing.clientKey === clientKey);
  }

  /** Starts a pairing and asks for approval in the background; the console polls `status`. */
  async request(origin: string, request: PairingRequest): Promise<PairingResponse> {
    this.expire();
    // A console asking again (the same origin and identity key) replaces its own earlier request
    // instead of adding a prompt. Only its own: anyone can send a request with the console's Origin.
    for (const [id, pairing] of this.pending) {
      if (
        pairing.origin === origin &&
        pairing.clientKey === request.clientKey &&
        pairing.status === 'pending'
      ) {
        this.pending.delete(id);
        this.endPrompts(id);
      }
    }
    if (
      [...this.pending.values()].filter((pairing) => pairing.status === 'pending').length >=
      MAX_PENDING_PAIRINGS
    ) {
      throw new PairingRefusedError('tooMany');
    }
    const agentNonce = newNonce();
    const code = await pairingCode({
      origin,
      clientKey: request.clientKey,
      clientNonce: request.clientNonce,
      agentKey: this.agentKey,
      agentNonce,
    });
    const pairing: PendingPairing = {
      id: newId(),
      origin,
      clientKey: request.clientKey,
      code,
      status: 'pending',
      expiresAt: this.now() + PAIRING_TTL_MS,
    };
    this.pending.set(pairing.id, pairing);
    // A pre-approved origin is paired before the answer, so its first poll already says so.
    if (this.preapprovedOrigins.includes(origin)) await this.settle(pairing, true);
    else this.ask(pairing);
    return {
      pairingId: pairing.id,
      agentKey: this.agentKey,
      agentNonce,
      expiresAt: new Date(pairing.expiresAt).toISOString(),
    };
  }

  /** The pairing's state, for the origin that asked only. */
  status(origin: string, id: string): PairingStatus | null {
    this.expire();
    const pairing = this.pending.get(id);
    return pairing && pairing.origin === origin ? pairing.status : null;
  }

  /** Pairings waiting for the desktop user (the control channel lists them). */
  waiting(): PendingPairing[] {
    this.expire();
    return [...this.pending.values()].filter((pairing) => pairing.status === 'pending');
  }

  /** Settles a waiting pairing by its code, from the agent's control channel. */
  async settleByCode(code: string, approve: boolean): Promise<PendingPairing | null> {
    const digits = code.replace(/\D/g, '');
    const pairing = this.waiting().find((candidate) => candidate.code.replace(/\D/g, '') === digits);
    if (!pairing) return null;
    await this.settle(pairing, approve);
    return pairing;
  }

  /** Every prompt shows the pairing; the first answer settles it, and it expires unanswered. */
  private ask(pairing: PendingPairing): void {
    const controller = new AbortController();
    const expiry = setTimeout(() => this.expire(), Math.max(0, pairing.expiresAt - this.now()));
    // An agent being stopped does not wait for a pairing nobody answers.
    expiry.unref();
    this.prompted.set(pairing.id, { controller, expiry });
    for (const prompt of this.prompts) {
      prompt(pairing, controller.signal).then(
        (answer) => (answer === null ? undefined : this.settle(pairing, answer)),
        (error: unknown) =>
          console.error(
            'Showing a pairing to the desktop user failed:',
            error instanceof Error ? error.message : error,
          ),
      );
    }
  }

  private endPrompts(id: string): void {
    const prompted = this.prompted.get(id);
    if (!prompted) return;
    this.prompted.delete(id);
    clearTimeout(prompted.expiry);
    prompted.controller.abort();
  }

  private async settle(pairing: PendingPairing, approve: boolean): Promise<void> {
    if (pairing.status !== 'pending' || pairing.expiresAt <= this.now()) return;
    this.endPrompts(pairing.id);
    if (!approve) {
      pairing.status = 'refused';
      console.info(`Refused the pairing of ${pairing.origin}.`);
      return;
    }
    if (!this.isPaired(pairing.origin, pairing.clientKey)) {
      this.approved = [
        ...this.approved,
        {
          origin: pairing.origin,
          clientKey: pairing.clientKey,
          approvedAt: new Date(this.now()).toISOString(),
        },
      ];
      await writePrivateFile(this.file, `${JSON.stringify(this.approved, null, 2)}\n`);
    }
    pairing.status = 'approved';
    console.info(`Paired with ${pairing.origin}.`);
  }

  private expire(): void {
    const now = this.now();
    for (const [id, pairing] of this.pending) {
      if (pairing.status === 'pending' && pairing.expiresAt <= now) {
        pairing.status = 'expired';
        this.endPrompts(id);
      }
      // Settled pairings stay readable for a while so the console's poll sees the outcome.
      if (pairing.expiresAt + PAIRING_TTL_MS <= now) this.pending.delete(id);
    }
  }
}
