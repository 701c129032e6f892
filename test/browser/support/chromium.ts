// Where the browser tests find a Chromium: CHROMIUM_PATH, else the one Debian's `chromium` package
// installs. None found: the tests are skipped with a loud message, except under CI=true, where a
// missing browser is a failure (the browser tests would silently stop testing anything).
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function findChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  return CANDIDATES.find((path) => existsSync(path));
}

export const CHROMIUM_PATH = findChromium();

if (CHROMIUM_PATH === undefined) {
  const message = 'No Chromium found (CHROMIUM_PATH, /usr/bin/chromium): the console browser tests cannot run. Install it with `apt-get install chromium`.';
  if (process.env.CI === 'true') throw new Error(message);
  process.stderr.write(`\n\n!!! ${message} They are SKIPPED. !!!\n\n`);
}

/**
 * Headless, and quiet on a machine without a network: Chromium's own background connections
 * (updates, sync, safe browsing) are turned off, so that nothing but the page's requests leaves it.
 */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--metrics-recording-only',
  '--no-default-browser-check',
];
