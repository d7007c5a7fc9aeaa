import { spawnSync } from 'node:child_process';
import { CHROMIUM_INSTALL_HINT, findChromium } from './chromium.ts';

/**
 * Makes sure the e2e suite has a browser: a fresh CI machine running as root installs Debian's
 * Chromium itself; anyone else is told in one line what to do.
 */
function canInstallWithApt(): boolean {
  const isRoot = process.getuid?.() === 0;
  return isRoot && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

function aptGet(...args: string[]): boolean {
  const result = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

let chromium = findChromium();
if (!chromium && !process.env.CHROMIUM_PATH && canInstallWithApt()) {
  console.info('Chromium not found; installing it with apt-get.');
  if (aptGet('update') && aptGet('install', '-y', '--no-install-recommends', 'chromium'))
    chromium = findChromium();
}
if (!chromium) {
  console.error(CHROMIUM_INSTALL_HINT);
  process.exit(1);
}
console.info(`Chromium: ${chromium}`);
