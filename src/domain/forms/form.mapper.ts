import type { Form, Site } from '../../generated/prisma/client.js';

export type FormWithSite = Form & { site: Pick<Site, 'id' | 'hostname'> | null };

export const formTypeName = (type: Form['type']): string => (type === 'multi_step' ? 'multi-step' : 'standard');
export const formTypeValue = (name: string | undefined): Form['type'] | undefined =>
  name === undefined ? undefined : name === 'multi-step' ? 'multi_step' : 'standard';
