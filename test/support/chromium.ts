/**
 * Chromium (Debian's, installed by `npm run test:setup`, or CHROMIUM_PATH) as the browser tests
 * launch it through playwright-core: headless, no sandbox, no GPU, nothing in the background.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
