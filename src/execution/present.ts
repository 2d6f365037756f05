import { GraphQLSchema, isObjectType, Kind, parse, type DocumentNode } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { RequestContext } from '../context.js';
import type { EventPayload } from '../domain/webhooks/events.service.js';
import type { FormWithSite } from '../domain/forms/form.mapper.js';
import type { Submission } from '../generated/prisma/client.js';
import { COMPILER_OPTIONS, fragmentDocument } from './operations.js';
import { selectionShape } from './response-shape.js';

/**
 * Renders a resource as v1 returns it. The representation belongs to the v1 layer (its routes' operations): the
 * caller presents an outcome once and hands the domain the result (an event's data), never a presenter, so the
 * domain records what it is given and never re-enters the executor (issue 32). src/domain may not import this
 * module (.dependency-cruiser.cjs, `no-transport-in-domain`), and test/architecture/presenters.test.ts finds a
 * presenter-typed parameter there however it is spelled.
 */
export type Present<T> = (resource: T) => Promise<Record<string, unknown>>;

type Project = (row: unknown, context: RequestContext) => Promise<Record<string, unknown>>;

/**
 * A resource as v1 shows it, made from a row by the routes' own fragment: the fragment runs on the row as its
 * root value (a schema whose query type is the fragment's type), with the schema's own resolvers, then gets the
 * same v1 shaping as a REST body. So an event's data is what GET returns, by construction.
 */
function projector(schema: GraphQLSchema, fragmentName: string): Project {
  const { document, fragment } = fragmentDocument(fragmentName);
  const type = schema.getType(fragment.typeCondition.name.value);
  if (!isObjectType(type)) throw new Error(`Fragment ${fragmentName} is not on an object type`);
  const query: DocumentNode = { kind: Kind.DOCUMENT, definitions: [...parse(`{ ...${fragmentName} }`).definitions, ...document.definitions] };
  const compiled = compileQuery(new GraphQLSchema({ query: type }), query, undefined, COMPILER_OPTIONS);
  if (!isCompiledQuery(compiled)) throw new Error(`Fragment ${fragmentName} does not compile: ${compiled.errors?.map((e) => e.message).join('; ')}`);
  const shape = selectionShape(schema, type, document, fragment.selectionSet);
  return async (row, context) => {
    const result = await compiled.query(row, context, {});
    const error = result.errors?.[0];
    if (error) throw error.originalError ?? error;
    return shape(result.data) as Record<string, unknown>;
  };
}

const cache = new WeakMap<GraphQLSchema, { form: Project; submission: Project; event: Project }>();

export interface V1Presenters {
  /** The form as `GET /v1/forms/{id}` returns it (`form.*` event data). */
  form: Present<FormWithSite>;
  /** The submission as `GET /v1/submissions/{id}` returns it (`submission.created` data). */
  submission: Present<Submission>;
  /** The event as `GET /v1/events/{id}` returns it (each message of the event stream). */
  event: Present<EventPayload>;
}

/** For a resolver: `schema` is its `info.schema`, so this module never imports the schema it serves. */
export function v1Presenters(schema: GraphQLSchema, context: RequestContext): V1Presenters {
  let projectors = cache.get(schema);
  if (!projectors) {
    projectors = { form: projector(schema, 'FormDetail'), submission: projector(schema, 'SubmissionFields'), event: projector(schema, 'EventFields') };
    cache.set(schema, projectors);
  }
  const { form, submission, event } = projectors;
  return { form: (row) => form(row, context), submission: (row) => submission(row, context), event: (row) => event(row, context) };
}
