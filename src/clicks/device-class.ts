import type { DeviceClass } from './click-store.ts';

// A documented regex rather than a UA-parsing library: the class is all a click needs, and these
// markers have been stable for a decade. Checked in this order:
// 1. no User-Agent, or an obvious robot / HTTP library          -> unknown
// 2. tablet markers (before mobile: an iPad UA says "Mobile/...";
//    an Android tablet is Android without "Mobile")               -> tablet
// 3. mobile markers ("Mobi" is Mozilla's advice for any phone)    -> mobile
// 4. a desktop operating system                                   -> desktop
// 5. anything else (TVs, consoles, unknown clients)               -> unknown
// Known limit: iPadOS 13+ Safari sends a Macintosh UA by default and counts as desktop.
const ROBOT =
  /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|preview|curl\/|wget\/|python-|java\/|go-http-client|okhttp|axios\/|node-fetch|undici|headless/i;
const TABLET = /ipad|tablet|kindle|silk\/|playbook|nexus (?:7|9|10)\b|sm-t\d|\bandroid(?!.*\bmobile\b)/i;
const MOBILE = /mobi|iphone|ipod|windows phone|blackberry|\bbb10\b|opera mini|iemobile|android.*\bmobile\b/i;
const DESKTOP = /windows nt|macintosh|mac os x|\bx11\b|linux|\bcros\b/i;

export function deviceClass(userAgent: string | undefined): DeviceClass {
  if (userAgent === undefined || userAgent.trim() === '' || ROBOT.test(userAgent)) return 'unknown';
  if (TABLET.test(userAgent)) return 'tablet';
  if (MOBILE.test(userAgent)) return 'mobile';
  if (DESKTOP.test(userAgent)) return 'desktop';
  return 'unknown';
}
