import { Trans } from '@lingui/react/macro';
import { type MouseEvent, type ReactNode, useId } from 'react';
import { useOnline } from '../lib/offline/online.ts';
import './offline.css';

/** What an action that needs the server gets from `NeedsConnection`. */
export interface ConnectionGate {
  /** True while offline: the action must not run. */
  blocked: boolean;
  /**
   * For the button or link: `aria-disabled` and the reason as its description while offline. The
   * control stays focusable, so keyboard and screen-reader users find out why it does nothing.
   */
  controlProps: {
    'aria-disabled'?: true;
    'aria-describedby'?: string;
    onClickCapture?: (event: MouseEvent) => void;
  };
}

/**
 * An action that cannot work offline (creating, deleting or unlinking accounts, exports, enrollment,
 * uploads, new secrets): while offline it is disabled and says "Needs a connection" beside it.
 *
 * ```tsx
 * <NeedsConnection>{(gate) => <Button {...gate.controlProps} onClick={…}>Export CSV</Button>}</NeedsConnection>
 * ```
 */
export function NeedsConnection({ children }: { children: (gate: ConnectionGate) => ReactNode }) {
  const online = useOnline();
  const reasonId = useId();
  if (online) return <>{children({ blocked: false, controlProps: {} })}</>;
  const stop = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <span className="needs-connection">
      {children({
        blocked: true,
        controlProps: { 'aria-disabled': true, 'aria-describedby': reasonId, onClickCapture: stop },
      })}
      <span id={reasonId} className="needs-connection__reason">
        <Trans>Needs a connection</Trans>
      </span>
    </span>
  );
}
