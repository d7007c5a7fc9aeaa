import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { publicResource, usePublicResource } from '../../../src/lib/public-data.ts';

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
