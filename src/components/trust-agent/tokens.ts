import { useLingui } from '@lingui/react/macro';
import type { Keystore, Token } from '../../../contract/trust-agent/entities.ts';
import type { CommandErrorCode } from '../../../contract/trust-agent/errors.ts';

/*
 * The trust agent's tokens as every console list of them shows them (the enrollment's keystore step,
 * the trust-agent panel): which can take a key, and the name a person tells them apart by. Here, in
 * the `trust-agent` catalog that each of those pages loads, not in src/lib, whose texts the sign-in
 * page carries too (decision 028).
 */

/**
 * The refusal the agent would answer a key request on the token with, known from the token's own
 * report before anything is asked; null when a key can be made on it. A token that is not
 * initialized has no PIN and takes no command until its maker's tool initializes it, which erases
 * it, so a page never offers to (decision 020 §5, §9).
 */
export function knownRefusal(token: Token): CommandErrorCode | null {
  return token.initialized ? null : 'tokenUninitialized';
}

/** Names of the agent's tokens and keystores, from what each token tells of itself. */
export function useTokenNames() {
  const { t } = useLingui();
  return {
    tokenName({ initialized, label, manufacturer, model, serial }: Token): string {
      // A token not initialized has neither label nor serial number: its maker and model are all it tells.
      if (!initialized) return t`Uninitialized token (${manufacturer} ${model})`;
      const name = label.trim() || t`Token without a label`;
      return serial.trim()
        ? t`${name} (${manufacturer} ${model}, serial ${serial})`
        : t`${name} (${manufacturer} ${model})`;
    },
    /** A token's keystore is named by the token's label, which a token not initialized has not got yet. */
    keystoreName({ name, slot }: Keystore): string {
      if (name.trim() !== '' || slot === null) return name;
      return t`Token in slot ${slot}`;
    },
  };
}
