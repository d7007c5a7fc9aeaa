// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TRUST_AGENT_LAUNCH_URL } from '../../../../contract/trust-agent/constants.ts';
import {
  PUBLIC_CLIENT_TOOLS_PATH,
  TrustAgentGate,
} from '../../../../src/components/trust-agent/trust-agent-gate.tsx';
import type { GateState } from '../../../../src/trust-agent/gate.ts';
import { activateEnglish } from '../../support.tsx';

function renderGate(gate: GateState, installHref?: string) {
  activateEnglish();
  const onRetry = vi.fn();
  const onPairAgain = vi.fn();
  render(
    <I18nProvider i18n={i18n}>
      <TrustAgentGate
        gate={gate}
        onRetry={onRetry}
        onPairAgain={onPairAgain}
        {...(installHref ? { installHref } : {})}
      >
        <p>The screen's content</p>
      </TrustAgentGate>
    </I18nProvider>,
  );
  return { onRetry, onPairAgain };
}

const AGENT = {
  product: 'trust-assistant',
  version: '1.1.4',
  protocol: 'trust-agent/1',
  os: 'mac',
  arch: 'arm64',
  enabled: true,
} as const;

describe('TrustAgentGate', () => {
  it('shows the content only once the agent is ready', () => {
    renderGate({ kind: 'ready', agent: AGENT });
    expect(screen.getByText("The screen's content")).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says it is looking for the agent while initializing, without the content', () => {
    renderGate({ kind: 'initializing' });
    expect(screen.getByRole('status').textContent).toContain('Looking for the trust agent on this computer');
    expect(screen.queryByText("The screen's content")).toBeNull();
  });

  it('shows the pairing code to compare with the agent', () => {
    renderGate({ kind: 'pairing', code: '042 917' });
    expect(screen.getByText('042 917')).toBeTruthy();
  });

  it('asks to install the agent, linking to where it is downloaded, and offers a retry once it stopped waiting', async () => {
    const { onRetry } = renderGate(
      { kind: 'notInstalled', code: 1, waiting: false },
      '/account/client-tools-catalogue',
    );
    expect(screen.getByText(/The trust agent is required/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download the trust agent' }).getAttribute('href')).toBe(
      '/account/client-tools-catalogue',
    );
    expect(screen.getByText('Error code: 1')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('does not offer a retry while it still waits for the agent to appear', () => {
    renderGate({ kind: 'notInstalled', code: 1, waiting: true });
    expect(screen.getByRole('link', { name: 'Download the trust agent' }).getAttribute('href')).toBe(
      PUBLIC_CLIENT_TOOLS_PATH,
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers to start an agent that is installed but not running', () => {
    renderGate({ kind: 'notRunning', code: 2, waiting: true });
    expect(screen.getByRole('link', { name: 'Start the trust agent' }).getAttribute('href')).toBe(
      TRUST_AGENT_LAUNCH_URL,
    );
    expect(screen.getByText('Error code: 2')).toBeTruthy();
  });

  it('warns about an agent with another key and offers to pair again', async () => {
    const { onPairAgain } = renderGate({
      kind: 'handshakeFailed',
      code: 3,
      reason: 'agentKeyChanged',
      waiting: false,
    });
    expect(screen.getByRole('alert').textContent).toContain('not the one this browser was paired with');
    await userEvent.click(screen.getByRole('button', { name: 'Pair again' }));
    expect(onPairAgain).toHaveBeenCalledOnce();
  });

  it('says how to approve a pairing where the agent runs as a service', () => {
    renderGate({ kind: 'pairing', code: '042 917' });
    expect(screen.getByText('trust-assistant approve 042917')).toBeTruthy();
  });

  it('tells what to do when the agent takes no more pairing requests', async () => {
    const { onRetry } = renderGate({
      kind: 'handshakeFailed',
      code: 3,
      reason: 'tooManyPairings',
      waiting: false,
    });
    expect(screen.getByRole('alert').textContent).toContain('refuse the ones this page did not make');
    expect(screen.getByText('trust-assistant pairings')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('starting the agent from its link looks for it again', async () => {
    const { onRetry } = renderGate({ kind: 'notRunning', code: 2, waiting: false });
    const start = screen.getByRole('link', { name: 'Start the trust agent' });
    // jsdom cannot follow the custom scheme; the click handler is what matters.
    start.addEventListener('click', (event) => event.preventDefault());
    await userEvent.click(start);
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('names the installed and the needed version of an outdated agent', () => {
    renderGate({ kind: 'outdated', version: '1.0.1', minimum: '1.0.2', waiting: true });
    expect(screen.getByText(/is version 1\.0\.1; this page needs version 1\.0\.2 or later/)).toBeTruthy();
  });

  it.each([
    [
      { kind: 'invalidVersion', version: 'one', waiting: false },
      /reports a version that is not valid \(one\)/,
    ],
    [{ kind: 'unsupportedSystem' }, /not on phones or tablets/],
    [{ kind: 'disabled', waiting: true }, /Web access is switched off/],
    [{ kind: 'initializeFailed', code: 4, waiting: true }, /could not get ready/],
    [{ kind: 'error', waiting: true }, /Something went wrong with the trust agent/],
  ] as const)('explains %o', (gate, text) => {
    renderGate(gate);
    expect(screen.getByText(text)).toBeTruthy();
  });

  it.each([
    { kind: 'handshakeFailed', code: 3, reason: 'refused' },
    { kind: 'initializeFailed', code: 4 },
    { kind: 'disabled' },
    { kind: 'error' },
    { kind: 'outdated', version: '1.0.1', minimum: '1.0.2' },
  ] as const)('says it retries by itself while it does, and offers Try again after: %o', async (state) => {
    renderGate({ ...state, waiting: true } as GateState);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    cleanup();
    const { onRetry } = renderGate({ ...state, waiting: false } as GateState);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
