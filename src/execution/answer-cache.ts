import { createHash } from 'node:crypto';
import { isObjectType, print, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { ApiKeyViewer } from '../context.js';

/*
 * Serialised answers of GraphQL queries over an account's forms and submissions, kept by the account's forms version
 * (src/domain/forms/form-version.ts). That version is the sum of its forms' `version` columns, which every write to a
 * form or to its submissions raises in the writing statement itself (ingest, erasure, delete, form create, update,
 * archive, fixture import): an answer built after reading version V shows nothing older than V, and a later write
 * moves the version past V, so an answer is never served after a write that could change it. The version is read
 * BEFORE the query runs: a write landing while it runs makes the stored pair stale (never served again), never
 * wrong. One statement replaces the query's (a dashboard of 100 forms: 2 statements, 500 rows, 33 KB built and
 * serialised) — the GraphQL dashboard's cost (issue #32, bench stage `dashboard`).
 *
 * Only what that version covers may be cached: the root fields and type fields below, read by an API key of an
 * account with no PHI form (every read of a PHI submission is audited, so it must run). Anything else in a
 * document (a form's `domain`, which a site's change moves; `rateLimit`; any mutation or subscription) makes it run
 * as always. Answers with errors are never kept. Different scopes or plans are different entries: a key is served
 * only what a key of its account, plan and scopes was answered.
 */

/** Root fields whose whole answer is the account's forms and submissions (Query.forms without `domainId`: sites move it). */
const VERSIONED_ROOT_FIELDS = new Set(['forms', 'form', 'formSubmissions', 'submission']);
const UNCOVERED_ARGUMENTS = new Set(['forms.domainId']);
/** Fields of the types those roots return that read only form rows, their fields and their submissions. */
const COVERED_FIELDS = new Set([
  'FormPage.data',
  'FormPage.pagination',
  'Form.id',
  'Form.name',
  'Form.type',
  'Form.submissionCount',
  'Form.fields',
  'Form.archived',
  'Form.phi',
  'Form.createdAt',
  'Form.updatedAt',
  'Form.latestSubmissions',
  'FormField.id',
  'FormField.label',
  'FormField.options',
  'FormField.placeholder',
  'FormField.required',
  'FormField.type',
  'Pagination.limit',
  'Pagination.page',
  'Pagination.pages',
  'Pagination.total',
  'SubmissionPage.data',
  'SubmissionPage.pagination',
  'SubmissionPage.cursor',
  'CursorPagination.limit',
  'CursorPagination.next',
  'Submission.id',
  'Submission.formId',
  'Submission.formData',
  'Submission.sourceDomain',
  'Submission.createdAt',
]);

/** Whether every field a document selects is covered by the account's forms version (and it is one query). */
export function coveredByFormsVersion(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  const queryType = schema.getQueryType();
  let covered = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node) {
        if (node.operation !== 'query') covered = false;
      },
      Field(node) {
        const parent = typeInfo.getParentType();
        const name = node.name.value;
        if (name === '__typename') return;
        if (parent === queryType) {
          if (!VERSIONED_ROOT_FIELDS.has(name) || node.arguments?.some((argument) => UNCOVERED_ARGUMENTS.has(`${name}.${argument.name.value}`))) covered = false;
        } else if (!parent || !COVERED_FIELDS.has(`${parent.name}.${name}`)) covered = false;
      },
      Directive(node) {
        // @skip/@include only: any other directive may mean something this file does not know.
        if (node.name.value !== 'skip' && node.name.value !== 'include') covered = false;
      },
    }),
  );
  return covered;
}

/** Every covered field name exists in the schema as an object type's field (a renamed field must not linger here). */
export function unknownCoveredFields(schema: GraphQLSchema): string[] {
  const query = schema.getQueryType()?.getFields() ?? {};
  const missing = [...VERSIONED_ROOT_FIELDS].filter((name) => !query[name]).map((name) => `Query.${name}`);
  for (const entry of COVERED_FIELDS) {
    const [typeName, field] = entry.split('.') as [string, string];
    const type = schema.getType(typeName);
    if (!isObjectType(type) || !type.getFields()[field]) missing.push(entry);
  }
  return missing;
}

interface Entry {
  version: string;
  /** The answer's `data`, serialised. */
  data: string;
  /** Its `actual` points (decisions §7.1), which depend on the data only. */
  actual: number;
}

export interface CachedAnswer {
  data: string;
  actual: number;
}

export interface AnswerCache {
  /** The entry key of a document run by this viewer with these variables, or null when it may not be cached. */
  keyOf(document: DocumentNode, operationName: string | null | undefined, variables: unknown, viewer: ApiKeyViewer): string | null;
  get(key: string, version: string): CachedAnswer | undefined;
  set(key: string, version: string, answer: CachedAnswer): void;
}

/** An LRU of serialised answers holding at most `maxBytes` of them (UTF-16 length as the measure); 0 keeps none. */
export function createAnswerCache(schema: GraphQLSchema, maxBytes: number): AnswerCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  // Per parsed document (the server caches documents by text): whether it may be cached, and its identity.
  const documents = new WeakMap<DocumentNode, string | null>();
  const documentId = (document: DocumentNode): string | null => {
    let id = documents.get(document);
    if (id === undefined) {
      id = coveredByFormsVersion(schema, document) ? createHash('sha256').update(print(document)).digest('base64url') : null;
      documents.set(document, id);
    }
    return id;
  };
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.data.length;
  };
  return {
    keyOf(document, operationName, variables, viewer) {
      if (maxBytes <= 0) return null;
      const id = documentId(document);
      if (id === null) return null;
      return `${viewer.accountId} ${viewer.plan} ${[...viewer.scopes].sort().join(',')} ${id} ${operationName ?? ''} ${JSON.stringify(variables ?? {})}`;
    },
    get(key, version) {
      const entry = entries.get(key);
      if (!entry || entry.version !== version) return undefined;
      // Most recently used last: the oldest go first.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    set(key, version, answer) {
      remove(key);
      if (answer.data.length > maxBytes) return;
      entries.set(key, { version, ...answer });
      bytes += answer.data.length;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        remove(oldest);
      }
    },
  };
}
