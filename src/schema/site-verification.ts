import { requireSiteViewer } from '../context.js';
import type { VerificationInstructions, VerificationStatus } from '../domain/verification/verification-status.js';
import { attemptWpPluginVerification, getVerificationStatus, type AttemptResult } from '../domain/verification/verification.service.js';
import { builder } from './builder.js';

/**
 * Site verification for the site-builder plugin (site key only): the status with its instructions, and the
 * wp_plugin attempt. The REST routes GET /site-verification and POST /site-verification/attempt run these.
 */

const VerificationMethodEnum = builder.enumType('VerificationMethod', {
  values: ['dns_txt', 'meta_tag', 'wp_plugin'] as const,
});

const toDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

const DnsTxtInstructionsRef = builder.objectRef<VerificationInstructions['dns_txt']>('DnsTxtInstructions').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    host: t.exposeString('host'),
    value: t.exposeString('value'),
  }),
});

const MetaTagInstructionsRef = builder.objectRef<VerificationInstructions['meta_tag']>('MetaTagInstructions').implement({
  fields: (t) => ({
    url: t.exposeString('url'),
    html: t.exposeString('html'),
  }),
});

const WpPluginInstructionsRef = builder.objectRef<VerificationInstructions['wp_plugin']>('WpPluginInstructions').implement({
  fields: (t) => ({
    paths: t.exposeStringList('paths'),
    pluginSlug: t.exposeString('pluginSlug'),
    note: t.exposeString('note'),
  }),
});

const VerificationInstructionsRef = builder.objectRef<VerificationInstructions>('VerificationInstructions').implement({
  description: 'Carries the verification token, so it is present only while the site is unverified',
  fields: (t) => ({
    token: t.exposeString('token'),
    dns_txt: t.field({ type: DnsTxtInstructionsRef, resolve: (i) => i.dns_txt }),
    meta_tag: t.field({ type: MetaTagInstructionsRef, resolve: (i) => i.meta_tag }),
    wp_plugin: t.field({ type: WpPluginInstructionsRef, resolve: (i) => i.wp_plugin }),
  }),
});

/** What a status and an attempt's result both show of a site's verification. */
const verificationStateFields = <Shape extends AttemptResult>(t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Shape>) => ({
  domain: t.string({ resolve: (s) => s.domain }),
  verified: t.boolean({ resolve: (s) => s.verified }),
  method: t.field({ type: VerificationMethodEnum, nullable: true, resolve: (s) => s.method }),
  verifiedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => toDate(s.verifiedAt) }),
  lastCheckedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => toDate(s.lastCheckedAt) }),
});

const SiteVerificationRef = builder.objectRef<VerificationStatus>('SiteVerification').implement({
  fields: (t) => ({
    ...verificationStateFields(t),
    methods: t.field({ type: [VerificationMethodEnum], resolve: (s) => s.methods }),
    instructions: t.field({ type: VerificationInstructionsRef, nullable: true, resolve: (s) => s.instructions ?? null }),
  }),
});

const SiteVerificationAttemptRef = builder.objectRef<AttemptResult>('SiteVerificationAttempt').implement({
  fields: (t) => verificationStateFields(t),
});

builder.queryFields((t) => ({
  siteVerification: t.field({
    type: SiteVerificationRef,
    description: 'Domain-verification status of the site whose key is presented. A site key’s field: served on GET /v1/site-verification (X-Service-Site-Key); /graphql, which takes API keys, answers insufficient_scope',
    authScopes: { siteKey: true },
    resolve: (_root, _args, context) => getVerificationStatus(context.deps.db.prisma, requireSiteViewer(context).siteId),
  }),
}));

builder.mutationFields((t) => ({
  attemptSiteVerification: t.field({
    type: SiteVerificationAttemptRef,
    description: 'Runs the wp_plugin check (the only method this can trigger); fails with wp_plugin_fetch_failed and per-path attempts. A site key’s field: served on POST /v1/site-verification/attempt (X-Service-Site-Key); /graphql, which takes API keys, answers insufficient_scope',
    authScopes: { siteKey: true },
    resolve: (_root, _args, context) =>
      attemptWpPluginVerification(context.deps.db.prisma, context.deps.fetcher, requireSiteViewer(context).siteId),
  }),
}));
