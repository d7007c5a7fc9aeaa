import { describe, expect, it } from 'vitest';
import { FairGate, TooBusy } from '../../../server/http/fair-gate.ts';

/** A job that runs until released, recording when it started. */
function controllableJobs() {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      releases.set(name, () => resolve(name));
    });
  const release = async (name: string) => {
    releases.get(name)?.();
    // Lets the gate start the next job before the test looks.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, job, release };
}

const refusal = () => new TooBusy('busy', 1);

describe('the fair gate for expensive work', () => {
  it('runs no more jobs at once than its concurrency', async () => {
    const gate = new FairGate({ concurrency: 2, perLane: 10, waiting: 10 });
    const { started, job, release } = controllableJobs();
    const runs = ['a', 'b', 'c'].map((name) => gate.run(name, job(name), refusal));
    await release('none');
    expect(started).toEqual(['a', 'b']);
    await release('a');
    expect(started).toEqual(['a', 'b', 'c']);
    await release('b');
    await release('c');
    await expect(Promise.all(runs)).resolves.toEqual(['a', 'b', 'c']);
  });

  it('serves the lanes in turn, so a client with many jobs waiting does not hold the others back', async () => {
    const gate = new FairGate({ concurrency: 1, perLane: 10, waiting: 10 });
    const { started, job, release } = controllableJobs();
    const runs = [
      ...['f1', 'f2', 'f3', 'f4'].map((name) => gate.run('flooder', job(name), refusal)),
      gate.run('someone', job('s1'), refusal),
      gate.run('another', job('o1'), refusal),
    ];
    for (const name of ['f1', 'f2', 's1', 'o1', 'f3', 'f4']) await release(name);
    await Promise.all(runs);
    expect(started).toEqual(['f1', 'f2', 's1', 'o1', 'f3', 'f4']);
  });

  it("refuses a lane's job beyond its share without running it, and takes it again once one is done", async () => {
    const gate = new FairGate({ concurrency: 1, perLane: 2, waiting: 10 });
    const { started, job, release } = controllableJobs();
    const first = gate.run('lane', job('1'), refusal);
    const second = gate.run('lane', job('2'), refusal);
    await expect(gate.run('lane', job('3'), refusal)).rejects.toBeInstanceOf(TooBusy);
    expect(started).toEqual(['1']);

    await release('1');
    const fourth = gate.run('lane', job('4'), refusal);
    await release('2');
    await release('4');
    await expect(Promise.all([first, second, fourth])).resolves.toEqual(['1', '2', '4']);
    expect(started).toEqual(['1', '2', '4']);
  });

  it('refuses new waiting jobs once the queue is full, whatever their lane', async () => {
    const gate = new FairGate({ concurrency: 1, perLane: 5, waiting: 2 });
    const { job, release } = controllableJobs();
    const runs = ['a', 'b', 'c'].map((name) => gate.run(name, job(name), refusal));
    await expect(gate.run('d', job('d'), refusal)).rejects.toBeInstanceOf(TooBusy);
    for (const name of ['a', 'b', 'c']) await release(name);
    await Promise.all(runs);
  });

  it('frees the place of a job that failed', async () => {
    const gate = new FairGate({ concurrency: 1, perLane: 1, waiting: 1 });
    await expect(gate.run('lane', () => Promise.reject(new Error('argon2 failed')), refusal)).rejects.toThrow(
      'argon2 failed',
    );
    await expect(gate.run('lane', () => Promise.resolve('next'), refusal)).resolves.toBe('next');
  });
});
