// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Keystore } from '../../../../contract/trust-agent/entities.ts';
import { TrustAgentPanel } from '../../../../src/components/trust-agent/trust-agent-panel.tsx';
import {
  AGENT,
  fakeAgent,
  hardwareToken,
  uninitializedToken,
} from '../../features/enrollment/agent-support.ts';
import { activateEnglish } from '../../support.tsx';

const keystore = (id: string, name: string, slot: number): Keystore => ({
  id,
  name,
  type: 'PKCS11',
  status: name === '' ? 'UNINITIALIZED' : 'INITIALIZED',
  slot,
  library: 'softhsm',
});

describe('TrustAgentPanel', () => {
  it('names a token that is not initialized by its maker and its slot, never as a token without a label', async () => {
    activateEnglish();
    const agent = fakeAgent({});
    render(
      <I18nProvider i18n={i18n}>
        <TrustAgentPanel installHref="#catalogue" agentClient={agent.client} />
      </I18nProvider>,
    );
    await agent.emit({ type: 'status', status: { phase: 'ready', agent: AGENT } });
    await agent.emit({
      type: 'keystores',
      keystores: [
        keystore(hardwareToken.keystoreId, 'Field token', 7),
        keystore(uninitializedToken.keystoreId, '', 1),
      ],
    });
    await agent.emit({ type: 'tokens', tokens: [hardwareToken, uninitializedToken] });

    const rowNames = (table: string) =>
      within(screen.getByRole('region', { name: table }))
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(rowNames('Keystores table')).toEqual(['Field token', 'Token in slot 1']);
    expect(rowNames('Tokens table')).toEqual([
      'Field token (SoftHSM project SoftHSM v2, serial 42)',
      'Uninitialized token (SoftHSM project SoftHSM v2)',
    ]);
  });
});
