import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

const siteVerification = rowsOf({ tag: 'Site verification', auth: 'siteKey' });

export const siteVerificationRoutes: Route[] = [
  siteVerification.row('GET /site-verification', {
    summary: "Get the site's verification status",
    description:
      "With a site key: whether the key's site is verified, by which method and when, with the DNS TXT, meta tag and WordPress plugin instructions while it is not.",
    operation: 'get-site-verification',
  }),
  siteVerification.row('POST /site-verification/attempt', {
    summary: 'Check site ownership now',
    description:
      "With a site key: runs the WordPress plugin ownership check at once; 200 with the verification status, or 422 wp_plugin_fetch_failed with each probed path and why it failed. Draws on the site key's attempt budget (30 per hour).",
    attemptBudget: true,
    errors: ['wp_plugin_fetch_failed'],
    operation: 'attempt-site-verification',
  }),
];
