import path from 'node:path';
import type { DesktopClientProfile } from '../../contract/trust-agent/desktop-client.ts';
import { readJsonFile, writePrivateFile } from '../files.ts';
import { SerialQueue } from '../keystores/queue.ts';

/**
 * The profiles the desktop client installed certificates under (`profile`), in a small JSON file in
 * the agent's data directory. One entry per profile name and keystore: installing the profile's
 * certificate again in the same keystore replaces what it records.
 */
export class DesktopClientProfiles {
  readonly #file: string;
  readonly #queue = new SerialQueue();

  constructor(dataDir: string) {
    this.#file = path.join(dataDir, 'desktop-client-profiles.json');
  }

  list(): Promise<DesktopClientProfile[]> {
    return readJsonFile<DesktopClientProfile[]>(this.#file, []);
  }

  record(profile: DesktopClientProfile): Promise<DesktopClientProfile> {
    return this.#queue.run(async () => {
      const others = (await this.list()).filter(
        (item) => item.name !== profile.name || item.keystoreId !== profile.keystoreId,
      );
      await writePrivateFile(this.#file, JSON.stringify([...others, profile]));
      return profile;
    });
  }
}
