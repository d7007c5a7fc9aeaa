import type { Context } from 'hono';
import { ApiError } from './errors.ts';

/** A request refused before any work because its client already has its share waiting. */
export class TooBusy extends ApiError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }

  override toResponse(c: Context): Response {
    c.header('Retry-After', String(this.retryAfterSeconds));
    return super.toResponse(c);
  }
}

export interface FairGateLimits {
  /** Jobs running at once in this process. */
  concurrency: number;
  /** Jobs one lane (one client) may have running or waiting; more are refused at once. */
  perLane: number;
  /** Jobs waiting over all lanes; more are refused at once, so many clients cannot grow the queue. */
  waiting: number;
}

/**
 * Expensive work a caller can ask for without being signed in (argon2id: 19 MiB and tens of
 * milliseconds apiece) runs through a gate: a bounded number at once, so the rest of the server keeps
 * its share of the CPU and thread pool, taken round-robin over lanes (clients), so a client that
 * floods it waits behind its own jobs while others go next, and refused before any work once a lane
 * or the queue is full. One gate per process: each process protects its own CPU.
 */
export class FairGate {
  readonly #limits: FairGateLimits;
  #running = 0;
  #waiting = 0;
  /** Starters of waiting jobs per lane; the map's order is the round-robin order. */
  readonly #queues = new Map<string, Array<() => void>>();
  /** Jobs per lane, running or waiting. */
  readonly #held = new Map<string, number>();

  constructor(limits: FairGateLimits) {
    this.#limits = limits;
  }

  /** Runs `work` in `lane`'s turn; throws `TooBusy` without running it when the lane or queue is full. */
  async run<T>(lane: string, work: () => Promise<T>, refusal: () => TooBusy): Promise<T> {
    const held = this.#held.get(lane) ?? 0;
    const mustWait = this.#running >= this.#limits.concurrency || this.#waiting > 0;
    if (held >= this.#limits.perLane || (mustWait && this.#waiting >= this.#limits.waiting)) throw refusal();
    this.#held.set(lane, held + 1);
    try {
      if (mustWait) await this.#wait(lane);
      else this.#running += 1;
      try {
        return await work();
      } finally {
        this.#running -= 1;
        this.#startNext();
      }
    } finally {
      this.#release(lane);
    }
  }

  #wait(lane: string): Promise<void> {
    return new Promise((start) => {
      const queue = this.#queues.get(lane);
      if (queue) queue.push(start);
      else this.#queues.set(lane, [start]);
      this.#waiting += 1;
    });
  }

  /** Starts the first waiting job of the lane whose turn it is, and sends that lane to the back. */
  #startNext(): void {
    const next = this.#queues.entries().next();
    if (next.done) return;
    const [lane, queue] = next.value;
    const start = queue.shift();
    this.#queues.delete(lane);
    if (queue.length > 0) this.#queues.set(lane, queue);
    if (!start) return;
    this.#waiting -= 1;
    this.#running += 1;
    start();
  }

  #release(lane: string): void {
    const left = (this.#held.get(lane) ?? 1) - 1;
    if (left > 0) this.#held.set(lane, left);
    else this.#held.delete(lane);
  }
}
