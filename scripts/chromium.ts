import { accessSync, constants } from 'node:fs';

/**
 * Where the Debian Chromium lives. Playwright's own browser downloads fail on our machines, so the
 * e2e suite drives the distribution's Chromium; CHROMIUM_PATH overrides for other systems.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'] as const;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable Chromium, or null. A CHROMIUM_PATH that is set but wrong is not skipped. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) return isExecutable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return CHROMIUM_CANDIDATES.find(isExecutable) ?? null;
}

export const CHROMIUM_INSTALL_HINT =
  'Chromium not found: install it with `sudo apt-get install -y chromium` or set CHROMIUM_PATH to its executable.';
