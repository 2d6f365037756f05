import { z } from 'zod';
import type { Route } from '../route.js';

const methodSchema = z.enum(['dns_txt', 'meta_tag', 'wp_plugin']);

const instructionsSchema = z.object({
  token: z.string(),
  dns_txt: z.object({ type: z.literal('TXT'), host: z.string(), value: z.string() }),
  meta_tag: z.object({ url: z.string(), html: z.string() }),
  wp_plugin: z.object({ paths: z.array(z.string()), pluginSlug: z.string(), note: z.string() }),
});

/** v1 "Site verification status": `instructions` only while unverified (it carries the token). */
export const siteVerificationStatusSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  method: methodSchema.nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  lastCheckedAt: z.iso.datetime().nullable(),
  methods: z.array(methodSchema),
  instructions: instructionsSchema.optional(),
});

export const siteVerificationAttemptSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  method: methodSchema.nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  lastCheckedAt: z.iso.datetime().nullable(),
});

export const siteVerificationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/site-verification',
    summary: 'Domain-verification status of the site the key belongs to, with instructions while unverified',
    tag: 'Site verification',
    auth: 'siteKey',
    scope: null,
    operation: 'get-site-verification',
    variables: () => ({}),
    respond: (data) => {
      const { instructions, ...status } = data.siteVerification as Record<string, unknown>;
      // GraphQL answers null for the absent object; v1 omits the member.
      const body = siteVerificationStatusSchema.parse(instructions === null || instructions === undefined ? status : { ...status, instructions });
      return { status: 200, body };
    },
    success: { status: 200, schema: siteVerificationStatusSchema },
  },
  {
    method: 'POST',
    path: '/site-verification/attempt',
    summary: 'Run the wp_plugin ownership check (422 wp_plugin_fetch_failed with per-path attempts when the token is not found)',
    tag: 'Site verification',
    auth: 'siteKey',
    scope: null,
    attemptBudget: true,
    operation: 'attempt-site-verification',
    variables: () => ({}),
    respond: (data) => ({ status: 200, body: siteVerificationAttemptSchema.parse(data.attemptSiteVerification) }),
    success: { status: 200, schema: siteVerificationAttemptSchema },
  },
];
