import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { KeystoreStatus, Mechanism, PinState, Token } from '../../../contract/trust-agent/entities.ts';
import type { TrustAgentClient } from '../../trust-agent/client.ts';
import { useTrustAgent } from '../../trust-agent/use-trust-agent.ts';
import { DetailsRow } from '../details-row.tsx';
import { TableFrame } from '../list/table-frame.tsx';
import { SectionEmpty } from '../section-card.tsx';
import { Button } from '../ui/button.tsx';
import { useTokenNames } from './tokens.ts';
import { TrustAgentGate } from './trust-agent-gate.tsx';
import './trust-agent.css';

/**
 * "Trust agent on this computer" on the client tools page: the agent's product and version, its
 * keystores and tokens, kept fresh by the worker's token polling. It asks for the software keystore
 * location, the strictest version rule, so an agent too old for enrollment is flagged here too.
 */
export function TrustAgentPanel({
  installHref,
  agentClient,
}: {
  installHref: string;
  /** The channel to the agent worker; the tests pass their own. */
  agentClient?: TrustAgentClient;
}) {
  const { t } = useLingui();
  const { keystoreName } = useTokenNames();
  const titleId = useId();
  const agent = useTrustAgent({
    location: 'software',
    watchTokens: true,
    ...(agentClient ? { client: agentClient } : {}),
  });
  return (
    <section className="trust-agent-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <Trans>Trust agent on this computer</Trans>
      </h2>
      <TrustAgentGate
        gate={agent.gate}
        installHref={installHref}
        onRetry={agent.retry}
        onPairAgain={agent.pairAgain}
      >
        {agent.gate.kind === 'ready' ? (
          <>
            <dl className="details">
              <DetailsRow label={<Trans>Product</Trans>}>{agent.gate.agent.product}</DetailsRow>
              <DetailsRow label={<Trans>Version</Trans>}>{agent.gate.agent.version}</DetailsRow>
              <DetailsRow label={<Trans>System</Trans>}>
                {agent.gate.agent.os} ({agent.gate.agent.arch})
              </DetailsRow>
            </dl>
            <div className="trust-agent-panel__toolbar">
              <Button variant="secondary" onClick={agent.refresh}>
                <Trans>Refresh</Trans>
              </Button>
              <Button variant="secondary" onClick={agent.pairAgain}>
                <Trans>Pair again</Trans>
              </Button>
            </div>
            <h3>
              <Trans>Keystores</Trans>
            </h3>
            {agent.keystores && agent.keystores.length > 0 ? (
              <TableFrame label={t`Keystores table`}>
                <table className="list-table">
                  <thead>
                    <tr>
                      <th scope="col">
                        <Trans>Name</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Type</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Status</Trans>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {agent.keystores.map((keystore) => (
                      <tr key={keystore.id}>
                        <th scope="row">{keystoreName(keystore)}</th>
                        <td>{keystore.type}</td>
                        <td>
                          <KeystoreStatusLabel status={keystore.status} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableFrame>
            ) : (
              <SectionEmpty>
                <Trans>The trust agent reports no keystore on this computer.</Trans>
              </SectionEmpty>
            )}
            <h3>
              <Trans>Tokens</Trans>
            </h3>
            <TokensTable tokens={agent.tokens} />
          </>
        ) : null}
      </TrustAgentGate>
    </section>
  );
}

function TokensTable({ tokens }: { tokens: Token[] | null }) {
  const { t } = useLingui();
  const { tokenName } = useTokenNames();
  if (!tokens || tokens.length === 0) {
    return (
      <SectionEmpty>
        <Trans>No token is connected to this computer.</Trans>
      </SectionEmpty>
    );
  }
  return (
    <TableFrame label={t`Tokens table`}>
      <table className="list-table">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Name</Trans>
            </th>
            <th scope="col">
              <Trans>Type</Trans>
            </th>
            <th scope="col">
              <Trans>Key types</Trans>
            </th>
            <th scope="col">
              <Trans>PIN</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={`${token.keystoreId}:${token.serial}`}>
              <th scope="row">{tokenName(token)}</th>
              <td>
                {token.type === 'HWToken' ? <Trans>Hardware token</Trans> : <Trans>Software token</Trans>}
              </td>
              <td>
                <MechanismRanges mechanisms={token.mechanisms} />
              </td>
              <td>
                <PinStateLabel pin={token.pin} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

function MechanismRanges({ mechanisms }: { mechanisms: Mechanism[] }) {
  if (mechanisms.length === 0) return <Trans>None reported</Trans>;
  return (
    <>
      {mechanisms.map((mechanism) => (
        <div key={mechanism.algorithm}>
          <MechanismRange mechanism={mechanism} />
        </div>
      ))}
    </>
  );
}

/** An RSA mechanism's sizes, an EC mechanism's curves. */
function MechanismRange({ mechanism }: { mechanism: Mechanism }) {
  const { algorithm } = mechanism;
  if (mechanism.algorithm === 'EC') {
    const curves = mechanism.curves.join(', ');
    return (
      <Trans>
        {algorithm}: curves {curves}
      </Trans>
    );
  }
  const { minKeySize, maxKeySize } = mechanism;
  return (
    <Trans>
      {algorithm}: {minKeySize}–{maxKeySize} bits
    </Trans>
  );
}

function KeystoreStatusLabel({ status }: { status: KeystoreStatus }) {
  switch (status) {
    case 'INITIALIZED':
      return <Trans>Ready</Trans>;
    case 'UNINITIALIZED':
      return <Trans>Not initialized</Trans>;
    case 'LOCKED':
      return <Trans>Locked</Trans>;
    case 'ABSENT':
      return <Trans>Not available</Trans>;
  }
}

function PinStateLabel({ pin }: { pin: PinState }) {
  if (pin.locked) return <Trans>Locked</Trans>;
  if (!pin.initialized) return <Trans>Not initialized</Trans>;
  if (pin.finalTry) return <Trans>Set, one try left</Trans>;
  if (pin.retriesLeft !== null)
    return plural(pin.retriesLeft, { one: 'Set, # try left', other: 'Set, # tries left' });
  return <Trans>Set</Trans>;
}
