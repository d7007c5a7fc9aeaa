/*
 * @peculiar/x509 behind its reflect polyfill, as one module: code split into chunks shared by several
 * screens, a separate `import 'reflect-metadata'` beside the library can run after the library's
 * own top level, which then fails ("tsyringe requires a reflect polyfill"). Import x509 from here.
 */
import 'reflect-metadata';

export * as x509 from '@peculiar/x509';
