/**
 * A background pass run every `intervalMs` and on demand, one pass at a time per process: a nudge
 * during a pass makes one more pass after it, so work queued meanwhile is never left for the next
 * poll. The mail dispatcher and the bulk-import runner are such loops. A failed pass is logged and
 * the next poll tries again; the timer never keeps a process alive that has nothing else to do.
 */
export interface PollingLoop {
  start(): void;
  /** Runs a pass now, or one more after the running one. */
  nudge(): void;
  /** Stops polling and waits for the running pass; the pass reads `stopped` to end early. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

export function pollingLoop(options: {
  intervalMs: number;
  pass: () => Promise<unknown>;
  onError: (error: unknown) => void;
}): PollingLoop {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  function run(): void {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = options
      .pass()
      .then(() => undefined, options.onError)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  }

  return {
    start: () => {
      stopped = false;
      timer ??= setInterval(run, options.intervalMs);
      timer.unref();
      run();
    },
    nudge: run,
    stop: async () => {
      stopped = true;
      if (timer !== null) clearInterval(timer);
      timer = null;
      await running;
    },
    get stopped() {
      return stopped;
    },
  };
}
