import { type Kysely, sql } from 'kysely';

/**
 * The enrollment reference data (overview §3, §7, §9; decision 019 "Profiles and reference data"):
 * the enrollment methods and the keystore types, answered from the database so that an operator can
 * add a token model without a new release. `position` keeps the order the console lists them in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('enrollment_methods')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('keystore_types')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) =>
      col.notNull().check(sql`category in ('Platform', 'HWToken', 'SWToken')`),
    )
    // Where the category comes from: the operating system's keystore (OSKS), the product's
    // software keystore (DTM_SOFTWARE) or a hardware token (HWTK).
    .addColumn('source', 'text', (col) =>
      col.notNull().check(sql`source in ('OSKS', 'DTM_SOFTWARE', 'HWTK')`),
    )
    // The keystore location an enrollment names; null for the operating system's keystores.
    .addColumn('location', 'text', (col) => col.check(sql`location in ('hardware_token', 'DTM_SOFTWARE')`))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addCheckConstraint(
      'keystore_types_category_source',
      sql`(category = 'Platform') = (source = 'OSKS') and (category = 'HWToken') = (source = 'HWTK')`,
    )
    .execute();

  await sql`insert into enrollment_methods (code, name, position) values
    ('DTA', 'Trust agent', 1),
    ('DDC', 'Desktop client', 2)`.execute(db);
  await sql`insert into keystore_types (code, name, category, source, location, position) values
    ('PFX', 'Software keystore (PKCS#12)', 'SWToken', 'DTM_SOFTWARE', 'DTM_SOFTWARE', 1),
    ('WINOS', 'Windows keystore', 'Platform', 'OSKS', null, 2),
    ('WIN-ENH', 'Windows enhanced keystore', 'Platform', 'OSKS', null, 3),
    ('MACOS', 'Keychain Access', 'Platform', 'OSKS', null, 4),
    ('FF-NSS', 'Firefox keystore', 'Platform', 'OSKS', null, 5),
    ('ETOKEN', 'SafeNet eToken', 'HWToken', 'HWTK', 'hardware_token', 6),
    ('YUBIKEY', 'YubiKey', 'HWToken', 'HWTK', 'hardware_token', 7),
    ('EPASS', 'ePass token', 'HWToken', 'HWTK', 'hardware_token', 8),
    ('SAFESIGN', 'SafeSign token', 'HWToken', 'HWTK', 'hardware_token', 9),
    ('ATHEIDP', 'Athena IDProtect', 'HWToken', 'HWTK', 'hardware_token', 10),
    ('CSK', 'Crypto smart key', 'HWToken', 'HWTK', 'hardware_token', 11)`.execute(db);
}
