/** One request as a recording sees it: when it went out and when its answer was complete. */
export interface TimedRequest {
  path: string;
  start: number;
  end: number;
}

/**
 * The length of the longest chain of requests one after another: a request follows every request that
 * had ended before it started, so requests in flight together count once. What a start-up waits for
 * is this many round trips, whatever the number of requests (docs/decisions/026-start-up-round-trips.md).
 * A request that waited for code rather than for an answer counts as chained too: the figure is an
 * upper bound of the dependency chain, which tests/src/features/session/start-up-order.test.tsx
 * checks exactly.
 */
export function longestChain(requests: readonly Pick<TimedRequest, 'start' | 'end'>[]): number {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((request, index) => {
    let before = 0;
    for (let earlier = 0; earlier < index; earlier++) {
      const other = sorted[earlier];
      if (other && other.end <= request.start) before = Math.max(before, depth[earlier] ?? 0);
    }
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}
