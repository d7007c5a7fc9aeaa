import type { Keystore, Token } from '../../contract/trust-agent/entities.ts';
import type { Keystores } from './index.ts';

/**
 * One source of keystores (the software keystore, or one PKCS#11 module): `openKeystores` sends each
 * command to the backend that owns its keystore id.
 */
export interface KeystoreBackend extends Omit<Keystores, 'list' | 'tokens' | 'modules'> {
  /** Whether the id is of this backend's form (the keystore may still be gone). */
  owns(keystoreId: string): boolean;
  list(): Promise<Keystore[]>;
  tokens(): Promise<Token[]>;
}
