import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_PENDING_PAIRINGS,
  PAIRING_TTL_MS,
  type PairingPrompt,
  PairingRefusedError,
  Pairings,
  type PendingPairing,
} from '../../agent/pairing.ts';
import { announceInLog, pairingPrompts } from '../../agent/prompt.ts';
import { TRUST_AGENT_PROTOCOL } from '../../contract/trust-agent/constants.ts';
import {
  exportPublicKey,
  generateIdentityKeys,
  newNonce,
} from '../../contract/trust-agent/session-crypto.ts';

const CONSOLE = 'https://console.example';

let dataDir = '';
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'trust-agent-pairing-'));
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await rm(dataDir, { recursive: true, force: true });
});

async function pairingRequest() {
  const identity = await generateIdentityKeys();
  return {
    protocol: TRUST_AGENT_PROTOCOL,
    clientKey: await exportPublicKey(identity.publicKey),
    clientNonce: newNonce(),
  };
}

/** A prompt that records what it was shown and when its pairing was settled, and never answers. */
function watchingPrompt() {
  const shown: { pairing: PendingPairing; settled: AbortSignal }[] = [];
  const prompt: PairingPrompt = (pairing, settled) => {
    shown.push({ pairing, settled });
    return Promise.resolve(null);
  };
  return { prompt, shown };
}

async function open(prompts: readonly PairingPrompt[]) {
  const agentKey = await exportPublicKey((await generateIdentityKeys()).publicKey);
  return Pairings.open({ dataDir, agentKey, preapprovedOrigins: [], prompts });
}

describe('pairing with an agent that runs without a terminal', () => {
  it('keeps a pairing waiting until the desktop user approves its code, instead of refusing it', async () => {
    const pairings = await open(pairingPrompts({ interactive: false, desktopNotifications: false, dataDir }));
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { pairingId } = await pairings.request(CONSOLE, await pairingRequest());
    await Promise.resolve();

    expect(pairings.status(CONSOLE, pairingId)).toBe('pending');
    const [waiting] = pairings.waiting();
    expect(waiting?.id).toBe(pairingId);
    // The service's log says who asks, the code and how to approve it.
    const announced = info.mock.calls.map(([line]) => String(line)).join('\n');
    expect(announced).toContain(CONSOLE);
    expect(announced).toContain(waiting?.code);
    // With the data directory, which is not the default one here: the command reaches this agent.
    expect(announced).toContain(
      `approve ${waiting?.code.replace(/\D/g, '')} --data-dir ${JSON.stringify(dataDir)}`,
    );

    await pairings.settleByCode(waiting?.code ?? '', true);
    expect(pairings.status(CONSOLE, pairingId)).toBe('approved');
  });

  it('lets a refusal by code end the pairing', async () => {
    const pairings = await open([announceInLog(dataDir)]);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { pairingId } = await pairings.request(CONSOLE, await pairingRequest());
    await pairings.settleByCode(pairings.waiting()[0]?.code ?? '', false);
    expect(pairings.status(CONSOLE, pairingId)).toBe('refused');
  });

  it('takes the prompts away once the pairing is settled elsewhere, and once it expires', async () => {
    vi.useFakeTimers();
    const { prompt, shown } = watchingPrompt();
    const pairings = await open([prompt]);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);

    await pairings.request(CONSOLE, await pairingRequest());
    await pairings.settleByCode(pairings.waiting()[0]?.code ?? '', true);
    expect(shown[0]?.settled.aborted).toBe(true);

    const { pairingId } = await pairings.request(CONSOLE, await pairingRequest());
    expect(shown[1]?.settled.aborted).toBe(false);
    vi.advanceTimersByTime(PAIRING_TTL_MS);
    expect(shown[1]?.settled.aborted).toBe(true);
    expect(pairings.status(CONSOLE, pairingId)).toBe('expired');
  });

  it('settles with the first prompt that answers', async () => {
    const pairings = await open([async () => null, async () => true]);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { pairingId } = await pairings.request(CONSOLE, await pairingRequest());
    await vi.waitFor(() => expect(pairings.status(CONSOLE, pairingId)).toBe('approved'));
  });
});

describe('pairings that wait at once', () => {
  it('replaces a console’s own earlier request, never another client’s with the same Origin', async () => {
    const { prompt } = watchingPrompt();
    const pairings = await open([prompt]);
    const consoleRequest = await pairingRequest();
    const first = await pairings.request(CONSOLE, consoleRequest);

    // A local program sends the console's Origin with keys of its own: the console's request stays.
    const forged = await pairings.request(CONSOLE, await pairingRequest());
    expect(pairings.status(CONSOLE, first.pairingId)).toBe('pending');
    expect(pairings.status(CONSOLE, forged.pairingId)).toBe('pending');

    // The console asking again with its own key replaces its earlier request.
    const again = await pairings.request(CONSOLE, { ...consoleRequest, clientNonce: newNonce() });
    expect(pairings.status(CONSOLE, first.pairingId)).toBeNull();
    expect(pairings.waiting().map((pairing) => pairing.id)).toEqual([forged.pairingId, again.pairingId]);
  });

  it('refuses a new request past the limit instead of pushing a waiting one out', async () => {
    const { prompt } = watchingPrompt();
    const pairings = await open([prompt]);
    const waiting = [];
    for (let index = 0; index < MAX_PENDING_PAIRINGS; index += 1) {
      waiting.push((await pairings.request(CONSOLE, await pairingRequest())).pairingId);
    }
    await expect(pairings.request(CONSOLE, await pairingRequest())).rejects.toBeInstanceOf(
      PairingRefusedError,
    );
    expect(pairings.waiting().map((pairing) => pairing.id)).toEqual(waiting);
  });
});
