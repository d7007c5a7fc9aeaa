import { type Kysely, sql } from 'kysely';

/**
 * The keystore types the platform lists are those a trust agent reports (contract/trust-agent/
 * entities.ts, AGENT_KEYSTORE_TYPES, as this migration writes them): the operating systems' own
 * keystores (Windows, Windows enhanced, Keychain, Firefox) and the crypto smart key, which no agent
 * reports, go; PKCS11, the type of a token of no known family, comes. A type an operator added stays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from keystore_types where code in ('WINOS', 'WIN-ENH', 'MACOS', 'FF-NSS', 'CSK')`.execute(
    db,
  );
  await sql`insert into keystore_types (code, name, category, source, location, position)
    values ('PKCS11', 'Other PKCS#11 token', 'HWToken', 'HWTK', 'hardware_token', 11)
    on conflict (code) do nothing`.execute(db);
}
