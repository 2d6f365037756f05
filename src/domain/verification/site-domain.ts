import type { Site } from '../../generated/prisma/client.js';

/**
 * A site as v1 names it from what is bound to it: `{ id, domain }` (the GraphQL `Domain` type). Built once where a
 * read produces it, so that GraphQL reads both members as they are: a field that renames a property (`hostname` →
 * `domain`) is a resolver, and graphql-jit pays a resolve info, a path and three closures for each call, per row.
 */
export interface SiteDomain {
  id: number;
  domain: string;
}

export const siteDomain = (site: Pick<Site, 'id' | 'hostname'>): SiteDomain => ({ id: site.id, domain: site.hostname });
