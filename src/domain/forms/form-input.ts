import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { httpsUrl, idNumber, isPlainObject, parseInput } from '../validation.js';

export const FIELD_TYPES = ['text', 'email', 'phone', 'number', 'textarea', 'select', 'radio', 'checkbox', 'date', 'time', 'url', 'hidden', 'consent'] as const;
export const FORM_TYPES = ['standard', 'multi-step'] as const;

export const fieldElementSchema = z
  .object({
    id: z.string().min(1).max(100).optional(),
    type: z.enum(FIELD_TYPES),
    label: z.string().min(1).max(500),
    required: z.boolean().optional(),
    options: z.array(z.string().max(500)).max(500).optional(),
    placeholder: z.string().max(500).optional(),
  })
  .strict();

const fieldsSchema = z.array(fieldElementSchema).min(1, 'must contain at least one field').max(200);

export type FieldElementInput = z.output<typeof fieldElementSchema>;
export type FieldElement = FieldElementInput & { id: string };

export const createFormBodySchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200),
    fields: fieldsSchema,
    type: z.enum(FORM_TYPES).optional(),
    domainId: idNumber.optional(),
    webhookUrl: httpsUrl.nullable().optional(),
  })
  .strict();

export const updateFormBodySchema = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200).optional(),
    fields: fieldsSchema.optional(),
    webhookUrl: httpsUrl.nullable().optional(),
    archived: z.boolean().optional(),
  })
  .strict();

export type CreateFormInput = z.output<typeof createFormBodySchema>;
export type UpdateFormInput = z.output<typeof updateFormBodySchema>;

/** Fields a PATCH may never touch (contract rule 5): named explicitly rather than lumped with unknown keys. */
const FORBIDDEN_PATCH_FIELDS = ['userId', 'orgId', 'domainId', 'createdAt', 'id'];

export function parseCreateFormInput(value: unknown): CreateFormInput {
  return parseInput(createFormBodySchema, value);
}

export function parseUpdateFormInput(value: unknown): UpdateFormInput {
  if (isPlainObject(value)) {
    const forbidden = FORBIDDEN_PATCH_FIELDS.filter((name) => name in value);
    if (forbidden.length) throw new AppError('forbidden_field', { fields: forbidden });
  }
  return parseInput(updateFormBodySchema, value);
}

/** Gives every element an id (a missing one is generated) and refuses duplicates, which would collide in formData. */
export function normalizeFields(fields: FieldElementInput[]): FieldElement[] {
  const normalized = fields.map((field) => ({ ...field, id: field.id ?? `f_${randomBytes(6).toString('hex')}` }));
  const seen = new Set<string>();
  const problems = normalized.flatMap((field, index) => {
    if (seen.has(field.id)) return [{ field: `fields.${index}.id`, message: `duplicate field id "${field.id}"` }];
    seen.add(field.id);
    return [];
  });
  if (problems.length) throw new AppError('validation_failed', { fields: problems });
  return normalized;
}
