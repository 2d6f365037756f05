import { builder } from './builder.js';

/** The v1 domain reference `{ id, domain }`: a registered site seen from the widgets bound to it. */
export const DomainRef = builder.prismaObject('Site', {
  name: 'Domain',
  select: { id: true, hostname: true },
  fields: (t) => ({
    id: t.exposeInt('id'),
    domain: t.exposeString('hostname'),
  }),
});
