import { defineRoute, type Route } from '../route.js';

export const siteVerificationRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/site-verification',
    summary: 'Domain-verification status of the site the key belongs to, with instructions while unverified',
    tag: 'Site verification',
    auth: 'siteKey',
    scope: null,
    operation: 'get-site-verification',
    variables: () => ({}),
    success: { status: 200 },
  }),
  defineRoute({
    method: 'POST',
    path: '/site-verification/attempt',
    summary: 'Run the wp_plugin ownership check (422 wp_plugin_fetch_failed with per-path attempts when the token is not found)',
    tag: 'Site verification',
    auth: 'siteKey',
    scope: null,
    attemptBudget: true,
    errors: ['wp_plugin_fetch_failed'],
    operation: 'attempt-site-verification',
    variables: () => ({}),
    success: { status: 200 },
  }),
];
