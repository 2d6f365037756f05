import type { VerificationMethod } from '../../generated/prisma/enums.js';
import type { Site } from '../../generated/prisma/client.js';

/** Every verification method the service supports, in the order v1 lists them. */
export const VERIFICATION_METHODS: VerificationMethod[] = ['dns_txt', 'meta_tag', 'wp_plugin'];

export const WP_PLUGIN_SLUG = 'service';
export const WP_PLUGIN_NOTE =
  'Requires the site-builder plugin to be installed and connected with this site\'s key. ' +
  'Not available on subdirectory installs or subdirectory multisite; use DNS verification there.';

/** The exact URLs the wp_plugin check probes, in order (contract §4); attempts[].path repeats them verbatim. */
export function wpPluginPaths(hostname: string): string[] {
  return [
    `https://${hostname}/?rest_route=/service/v1/verify`,
    `https://${hostname}/wp-admin/admin-ajax.php?action=service_verify`,
  ];
}

export interface VerificationInstructions {
  token: string;
  dns_txt: { type: 'TXT'; host: string; value: string };
  meta_tag: { url: string; html: string };
  wp_plugin: { paths: string[]; pluginSlug: string; note: string };
}

/** The v1 "Site verification status" object, as the JSON body carries it. */
export interface VerificationStatus {
  domain: string;
  verified: boolean;
  method: VerificationMethod | null;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  methods: VerificationMethod[];
  instructions?: VerificationInstructions;
}

export type VerificationSite = Pick<Site, 'hostname' | 'verified' | 'method' | 'verifiedAt' | 'lastCheckedAt' | 'verificationToken'>;

export function verificationInstructions(hostname: string, token: string): VerificationInstructions {
  return {
    token,
    dns_txt: { type: 'TXT', host: hostname, value: `service-verify=${token}` },
    meta_tag: { url: `https://${hostname}/`, html: `<meta name="service-verify" content="${token}">` },
    wp_plugin: { paths: wpPluginPaths(hostname), pluginSlug: WP_PLUGIN_SLUG, note: WP_PLUGIN_NOTE },
  };
}

/**
 * The token travels only while the site is unverified: once ownership is proven there is nothing left
 * to place, and omitting it keeps a verified site's status free of anything worth copying.
 */
export function toVerificationStatus(site: VerificationSite): VerificationStatus {
  const status: VerificationStatus = {
    domain: site.hostname,
    verified: site.verified,
    method: site.method ?? null,
    verifiedAt: site.verifiedAt ? site.verifiedAt.toISOString() : null,
    lastCheckedAt: site.lastCheckedAt ? site.lastCheckedAt.toISOString() : null,
    methods: [...VERIFICATION_METHODS],
  };
  if (!site.verified) status.instructions = verificationInstructions(site.hostname, site.verificationToken);
  return status;
}
