import type { Site } from '../generated/prisma/client.js';
import { builder } from './builder.js';

/** The v1 domain reference `{ id, domain }`: a registered site seen from the widgets bound to it. */
export const DomainRef = builder.objectRef<Pick<Site, 'id' | 'hostname'>>('Domain').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    domain: t.exposeString('hostname'),
  }),
});

/** What a widget's `domain` field selects of its site (for prismaObject parents). */
export const SITE_REFERENCE = { site: { select: { id: true, hostname: true } } } as const;
