import { z } from 'zod';

/** The documented v1 response shapes. Parsing a GraphQL result through them keeps exactly these fields. */
export const domainRefSchema = z.object({ id: z.number().int(), domain: z.string() });

export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
});

const buildList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: paginationSchema });
const lists = new WeakMap<z.ZodType, ReturnType<typeof buildList>>();

/** `{ data, pagination }` of `item`, built once per item schema: zod compiles a schema on its first parse. */
export function listOf<T extends z.ZodType>(item: T): ReturnType<typeof buildList<T>> {
  let list = lists.get(item);
  if (!list) lists.set(item, (list = buildList(item)));
  return list as ReturnType<typeof buildList<T>>;
}

export const fieldElementOutSchema = z.object({
  id: z.string(),
  type: z.string(),
  label: z.string(),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional(),
  placeholder: z.string().optional(),
});

const formBase = {
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['standard', 'multi-step']),
  domain: domainRefSchema.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const formListItemSchema = z.object({ ...formBase, submissionCount: z.number().int() });
export const formSchema = z.object({ ...formBase, fields: z.array(fieldElementOutSchema) });

export const submissionSchema = z.object({
  id: z.number().int(),
  formId: z.number().int(),
  formData: z.record(z.string(), z.unknown()),
  sourceDomain: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const errorSchema = z.object({ error: z.string(), code: z.string() }).loose();

/** GraphQL selects the optional element properties as null; v1 shows only those that are set. */
export function withoutNullProperties(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
