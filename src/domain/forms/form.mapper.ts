import type { Form, Site } from '../../generated/prisma/client.js';
import type { FieldElement } from './form-input.js';

export type FormWithSite = Form & { site: Pick<Site, 'id' | 'hostname'> | null };

export const formTypeName = (type: Form['type']): string => (type === 'multi_step' ? 'multi-step' : 'standard');
export const formTypeValue = (name: string | undefined): Form['type'] | undefined =>
  name === undefined ? undefined : name === 'multi-step' ? 'multi_step' : 'standard';

export const domainRef = (site: Pick<Site, 'id' | 'hostname'> | null): { id: number; domain: string } | null =>
  site ? { id: site.id, domain: site.hostname } : null;

/** A field element as v1 shows it: the stored element's documented properties, nothing else. */
export function fieldElementV1(field: FieldElement): Record<string, unknown> {
  const { id, type, label, required, options, placeholder } = field;
  return {
    id,
    type,
    label,
    ...(required !== undefined && { required }),
    ...(options !== undefined && { options }),
    ...(placeholder !== undefined && { placeholder }),
  };
}

/** The form as `GET /v1/forms/{id}` returns it; event payloads (`form.*`) carry exactly this. */
export function toFormV1(form: FormWithSite): Record<string, unknown> {
  return {
    id: form.id,
    name: form.name,
    type: formTypeName(form.type),
    domain: domainRef(form.site),
    fields: (form.fields as FieldElement[]).map(fieldElementV1),
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  };
}
