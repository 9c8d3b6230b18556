/**
 * Chromium as the browser tests and the Lighthouse bench run it: in a container (no sandbox, no
 * GPU), and quiet, so no update, sync or QUIC traffic of its own lands in what they measure.
 */
export const QUIET_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
