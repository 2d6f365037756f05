import type { Form } from '../../generated/prisma/client.js';
import type { SiteDomain } from '../verification/site-domain.js';

/** A form row with its site as v1 shows it (`domain`: null for a form bound to none). */
export type FormWithSite = Form & { domain: SiteDomain | null };

export const formTypeName = (type: Form['type']): string => (type === 'multi_step' ? 'multi-step' : 'standard');
export const formTypeValue = (name: string | undefined): Form['type'] | undefined =>
  name === undefined ? undefined : name === 'multi-step' ? 'multi_step' : 'standard';
