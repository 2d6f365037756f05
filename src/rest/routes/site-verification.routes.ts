import type { Route } from '../route.js';
import { rowsOf } from '../rows.js';

const siteVerification = rowsOf({ tag: 'Site verification', auth: 'siteKey', scope: null });

export const siteVerificationRoutes: Route[] = [
  siteVerification.row('GET /site-verification', {
    summary: 'Domain-verification status of the site the key belongs to, with instructions while unverified',
    operation: 'get-site-verification',
    variables: () => ({}),
    success: { status: 200 },
  }),
  siteVerification.row('POST /site-verification/attempt', {
    summary: 'Run the wp_plugin ownership check (422 wp_plugin_fetch_failed with per-path attempts when the token is not found)',
    attemptBudget: true,
    errors: ['wp_plugin_fetch_failed'],
    operation: 'attempt-site-verification',
    variables: () => ({}),
    success: { status: 200 },
  }),
];
