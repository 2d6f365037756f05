import type { SiteDomain } from '../domain/verification/site-domain.js';
import { builder } from './builder.js';

/** The v1 domain reference `{ id, domain }`: a registered site seen from the widgets bound to it (siteDomain). */
export const DomainRef = builder.objectRef<SiteDomain>('Domain').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    domain: t.exposeString('domain'),
  }),
});

/** What a widget's `domain` field selects of its site (for prismaObject parents). */
export const SITE_REFERENCE = { site: { select: { id: true, hostname: true } } } as const;
