import path from 'node:path';
import { newId, newNonce, pairingCode } from '../contract/trust-agent/session-crypto.ts';
import type { PairingRequest, PairingResponse } from '../contract/trust-agent/wire.ts';
import { readJsonFile, writePrivateFile } from './files.ts';

/** A pairing request waits this long for the desktop user. */
export const PAIRING_TTL_MS = 2 * 60 * 1000;
/** At most this many pairings wait at once: a page cannot queue prompts without end. */
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

/** Asks the desktop user about a pairing; resolves true to approve. */
export type PairingApprover = (pairing: PendingPairing) => Promise<boolean>;

export class PairingRefusedError extends Error {
  constructor(readonly reason: 'tooMany') {
    super('Too many pairings are waiting for approval');
  }
}

/**
 * Which console (origin and identity key) may open sessions with this agent. A new one is paired
 * only when the desktop user approves it, comparing the code the agent shows with the console's;
 * an origin of `preapprovedOrigins` is paired without asking (tests and managed installs).
 */
export class Pairings {
  private approved: ApprovedPairing[] = [];
  private readonly pending = new Map<string, PendingPairing>();
  private readonly file: string;

  private constructor(
    dataDir: string,
    private readonly agentKey: string,
    private readonly preapprovedOrigins: readonly string[],
    private readonly approve: PairingApprover,
    private readonly now: () => number,
  ) {
    this.file = path.join(dataDir, 'pairings.json');
  }

  static async open(options: {
    dataDir: string;
    agentKey: string;
    preapprovedOrigins: readonly string[];
    approve: PairingApprover;
    now?: () => number;
  }): Promise<Pairings> {
    const pairings = new Pairings(
      options.dataDir,
      options.agentKey,
      options.preapprovedOrigins,
      options.approve,
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
    // A console asking again replaces its own earlier request instead of adding a prompt.
    for (const [id, pairing] of this.pending) {
      if (pairing.origin === origin && pairing.status === 'pending') this.pending.delete(id);
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
    void this.decide(pairing);
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

  private async decide(pairing: PendingPairing): Promise<void> {
    if (this.preapprovedOrigins.includes(pairing.origin)) {
      await this.settle(pairing, true);
      return;
    }
    try {
      const approved = await this.approve(pairing);
      if (pairing.status === 'pending') await this.settle(pairing, approved);
    } catch (error) {
      console.error('Asking about a pairing failed:', error instanceof Error ? error.message : error);
    }
  }

  private async settle(pairing: PendingPairing, approve: boolean): Promise<void> {
    if (pairing.status !== 'pending' || pairing.expiresAt <= this.now()) return;
    if (!approve) {
      pairing.status = 'refused';
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
      if (pairing.status === 'pending' && pairing.expiresAt <= now) pairing.status = 'expired';
      // Settled pairings stay readable for a while so the console's poll sees the outcome.
      if (pairing.expiresAt + PAIRING_TTL_MS <= now) this.pending.delete(id);
    }
  }
}
