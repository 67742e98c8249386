// Which Chromium the browser tests and web/measure.ts drive (Debian's, installed by .ci/run when
// missing), and how it is launched: headless, no sandbox (root in CI), nothing fetched from the network.
import { accessSync, constants } from 'node:fs';

export const CHROMIUM = process.env.STAYGATE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Throws, with what to do, when `executable` is not a program this process may run. Checked before
 * anything starts: a gateway (and its simulator child) started first and never closed kept the
 * test process alive, so a machine without Chromium hung instead of failing.
 */
export function assertChromium(executable: string = CHROMIUM): void {
  try {
    accessSync(executable, constants.X_OK);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : 'cannot be run';
    throw new Error(
      `Chromium ${why} at ${executable}: the browser tests need it. Install it (apt-get install -y chromium; .ci/run does) ` +
        'or point STAYGATE_CHROMIUM at a Chromium binary.',
      { cause: error },
    );
  }
}
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
