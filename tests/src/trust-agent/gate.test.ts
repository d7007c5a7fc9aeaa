import { describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../../contract/trust-agent/entities.ts';
import type { PlatformInfo } from '../../../src/lib/platform.ts';
import {
  checkDesktopClientVersion,
  checkTrustAssistantVersion,
  gateState,
} from '../../../src/trust-agent/gate.ts';

const DESKTOP: PlatformInfo = { system: 'windows', mobile: false };

function agent(version: string): AgentInfo {
  return {
    product: 'trust-assistant',
    version,
    protocol: 'trust-agent/1',
    os: 'windows',
    arch: 'x64',
    enabled: true,
  };
}

describe('the trust assistant version rule', () => {
  it.each([
    ['0.9.9', undefined, { ok: false, reason: 'outdated', minimum: '1.0.0' }],
    ['1.0.0', undefined, { ok: true }],
    ['1.0.1', undefined, { ok: true }],
    ['1.0.0', 'software', { ok: false, reason: 'outdated', minimum: '1.0.2' }],
    ['1.0.1', 'software', { ok: false, reason: 'outdated', minimum: '1.0.2' }],
    ['1.0.2', 'software', { ok: true }],
    ['1.0.1', 'hardware', { ok: true }],
    ['1.1.4', 'software', { ok: true }],
    ['1.0', undefined, { ok: false, reason: 'invalid' }],
    ['v-next', 'software', { ok: false, reason: 'invalid' }],
    ['', undefined, { ok: false, reason: 'invalid' }],
  ] as const)('%s for the %s keystore location is %o', (version, location, expected) => {
    expect(checkTrustAssistantVersion(version, location)).toEqual(expected);
  });

  it('asks the desktop client for 3.3.1 or later', () => {
    expect(checkDesktopClientVersion('3.3.0')).toEqual({ ok: false, reason: 'outdated', minimum: '3.3.1' });
    expect(checkDesktopClientVersion('3.3.1')).toEqual({ ok: true });
    expect(checkDesktopClientVersion('three')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('the gate', () => {
  it('is initializing while the worker looks for the agent or connects', () => {
    expect(gateState({ phase: 'detecting' }, DESKTOP)).toEqual({ kind: 'initializing' });
    expect(gateState({ phase: 'connecting', agent: agent('1.1.4') }, DESKTOP)).toEqual({
      kind: 'initializing',
    });
  });

  it('shows the pairing code while the user approves in the agent', () => {
    expect(gateState({ phase: 'pairing', agent: agent('1.1.4'), code: '123 456' }, DESKTOP)).toEqual({
      kind: 'pairing',
      code: '123 456',
    });
  });

  it('is ready with the agent once the session is initialized', () => {
    expect(gateState({ phase: 'ready', agent: agent('1.1.4') }, DESKTOP, 'software')).toEqual({
      kind: 'ready',
      agent: agent('1.1.4'),
    });
  });

  it('tells not installed (code 1) from not running (code 2) by whether an agent was paired here', () => {
    expect(gateState({ phase: 'unreachable', pinned: false, waiting: true }, DESKTOP)).toEqual({
      kind: 'notInstalled',
      code: 1,
      waiting: true,
    });
    expect(gateState({ phase: 'unreachable', pinned: true, waiting: false }, DESKTOP)).toEqual({
      kind: 'notRunning',
      code: 2,
      waiting: false,
    });
  });

  it('reports a failed handshake (code 3) with its reason and a failed initialize (code 4)', () => {
    expect(
      gateState(
        { phase: 'handshakeFailed', agent: agent('1.1.4'), reason: 'agentKeyChanged', waiting: false },
        DESKTOP,
      ),
    ).toEqual({ kind: 'handshakeFailed', code: 3, reason: 'agentKeyChanged', waiting: false });
    expect(gateState({ phase: 'initializeFailed', agent: agent('1.1.4'), waiting: true }, DESKTOP)).toEqual({
      kind: 'initializeFailed',
      code: 4,
      waiting: true,
    });
  });

  it('is outdated for an agent below the location’s minimum, before any pairing', () => {
    expect(
      gateState({ phase: 'pairing', agent: agent('1.0.1'), code: '123 456' }, DESKTOP, 'software'),
    ).toEqual({
      kind: 'outdated',
      version: '1.0.1',
      minimum: '1.0.2',
      waiting: false,
    });
    expect(gateState({ phase: 'ready', agent: agent('1.0.1') }, DESKTOP, 'hardware')).toMatchObject({
      kind: 'ready',
    });
    expect(gateState({ phase: 'unsupportedAgent', agent: agent('0.9.9'), waiting: true }, DESKTOP)).toEqual({
      kind: 'outdated',
      version: '0.9.9',
      minimum: '1.0.0',
      waiting: true,
    });
  });

  it('refuses an agent whose version is not semver', () => {
    expect(gateState({ phase: 'unsupportedAgent', agent: agent('1.0'), waiting: false }, DESKTOP)).toEqual({
      kind: 'invalidVersion',
      version: '1.0',
      waiting: false,
    });
  });

  it('refuses mobile devices and systems the agent does not run on, whatever the agent says', () => {
    const ready = { phase: 'ready', agent: agent('1.1.4') } as const;
    expect(gateState(ready, { system: 'other', mobile: true })).toEqual({ kind: 'unsupportedSystem' });
    expect(gateState(ready, { system: 'windows', mobile: true })).toEqual({ kind: 'unsupportedSystem' });
    expect(gateState(ready, { system: 'other', mobile: false })).toEqual({ kind: 'unsupportedSystem' });
    expect(gateState(ready, { system: 'linux', mobile: false })).toMatchObject({ kind: 'ready' });
    expect(gateState(ready, { system: 'mac', mobile: false })).toMatchObject({ kind: 'ready' });
  });

  it('is disabled when web access is off in the agent, and a generic error otherwise', () => {
    expect(gateState({ phase: 'disabled', agent: null, waiting: true }, DESKTOP)).toEqual({
      kind: 'disabled',
      waiting: true,
    });
    expect(gateState({ phase: 'error', agent: null, waiting: false }, DESKTOP)).toEqual({
      kind: 'error',
      waiting: false,
    });
  });
});
