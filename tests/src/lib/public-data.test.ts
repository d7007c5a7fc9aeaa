import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { publicResource, useAction, usePublicResource } from '../../../src/lib/public-data.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('publicResource', () => {
  it('shares one request between concurrent reads and answers from memory while fresh', async () => {
    const load = vi.fn().mockResolvedValue('answer');
    const resource = publicResource(load, 60_000);
    const [first, second] = await Promise.all([resource.read(), resource.read()]);
    expect([first, second]).toEqual(['answer', 'answer']);
    await resource.read();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again on every read when its answers never stay fresh, and when invalidated or forced', async () => {
    const always = vi.fn().mockResolvedValue(1);
    const undecided = publicResource(always, 0);
    await undecided.read();
    await undecided.read();
    expect(always).toHaveBeenCalledTimes(2);

    const load = vi.fn().mockResolvedValue(2);
    const resource = publicResource(load, Number.POSITIVE_INFINITY);
    await resource.read();
    resource.invalidate();
    await resource.read();
    await resource.read({ fresh: true });
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('keeps the last answer when a later read fails, and rejects that read', async () => {
    const load = vi.fn().mockResolvedValueOnce('old').mockRejectedValueOnce(new Error('down'));
    const resource = publicResource(load, 0);
    await resource.read();
    await expect(resource.read()).rejects.toThrow('down');
    expect(resource.snapshot()).toMatchObject({ data: 'old', error: new Error('down') });
  });
});

describe('usePublicResource', () => {
  it('fetches on first use and renders the answer', async () => {
    const resource = publicResource(() => Promise.resolve(['en', 'de']), 60_000);
    const { result } = renderHook(() => usePublicResource(resource));
    expect(result.current.data).toBeUndefined();
    await waitFor(() => expect(result.current.data).toEqual(['en', 'de']));
  });

  it('leaves the data undefined when the request fails, without throwing', async () => {
    const resource = publicResource(() => Promise.reject(new Error('offline')), 60_000);
    const { result } = renderHook(() => usePublicResource(resource));
    await waitFor(() => expect(result.current.error).toEqual(new Error('offline')));
    expect(result.current.data).toBeUndefined();
  });
});

describe('useAction', () => {
  it('reports pending, then calls back with the result', async () => {
    const answer = deferred<string>();
    const perform = () => answer.promise;
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useAction(perform));
    act(() => result.current.run(undefined, { onSuccess }));
    expect(result.current.isPending).toBe(true);
    await act(async () => answer.resolve('done'));
    expect(result.current.isPending).toBe(false);
    expect(onSuccess).toHaveBeenCalledWith('done');
  });

  it('keeps the failure for the form and clears it when the user submits again', async () => {
    const perform = vi.fn<(input: number) => Promise<number>>().mockRejectedValueOnce(new Error('refused'));
    const { result } = renderHook(() => useAction(perform));
    await act(async () => result.current.run(1));
    expect(result.current.error).toEqual(new Error('refused'));
    perform.mockReturnValueOnce(new Promise(() => undefined));
    act(() => result.current.run(2));
    expect(result.current.error).toBeNull();
  });

  it('reports only the latest run when the user submits twice', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const perform = vi.fn<(input: string) => Promise<string>>((input) =>
      input === 'first' ? first.promise : second.promise,
    );
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useAction(perform));
    act(() => result.current.run('first', { onSuccess }));
    act(() => result.current.run('second', { onSuccess }));
    await act(async () => second.resolve('second answer'));
    await act(async () => first.resolve('first answer'));
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(onSuccess).toHaveBeenCalledWith('second answer');
  });

  it('drops an answer that arrives after the form left', async () => {
    const answer = deferred<string>();
    const onSuccess = vi.fn();
    const { result, unmount } = renderHook(() => useAction(() => answer.promise));
    act(() => result.current.run(undefined, { onSuccess }));
    unmount();
    await act(async () => answer.resolve('late'));
    expect(onSuccess).not.toHaveBeenCalled();
  });
});
