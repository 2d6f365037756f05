import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { actualPoints, createCostPlanCache, planCost, pointsFor, requestedObjectCount, requestedPoints, type CostPlan } from '../../src/gate/cost.js';
import { toSchema } from '../../src/schema/index.js';

/*
 * Decisions §7.1's pricing as pure functions over the real schema: the integrator guide's worked examples, each
 * with its `requested` (from the document and variables) and its `actual` (from a result of the same shape).
 */

const schema = toSchema();
const plan = (query: string, operationName?: string): CostPlan => {
  const result = planCost(schema, parse(query), operationName);
  if (!result) throw new Error('no operation');
  return result;
};

/** `count` objects of `make(i)`. */
const many = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

/** A query's N, so the examples state the objects as well as the points. */
const objectsOf = (p: CostPlan, variables?: Record<string, unknown>): number => {
  if (p.kind !== 'query') throw new Error('a query');
  return requestedObjectCount(p, variables);
};

describe('points', () => {
  it('are max(1, ceil(N / 1000))', () => {
    expect([0, 1, 999, 1000, 1001, 2500].map(pointsFor)).toStrictEqual([1, 1, 1, 1, 2, 3]);
  });
});

describe('a forms page with nested newest submissions', () => {
  const query = `query Dashboard($limit: Int) {
    forms(limit: $limit) {
      data { id name domain { id domain } latestSubmissions(limit: 10) { id createdAt } }
      pagination { total pages }
    }
  }`;

  it('requests the page, its pagination and each form at its limit with its domain and 10 submissions', () => {
    const p = plan(query);
    // 1 page + 1 pagination + 100 forms × (1 + 1 domain + 10 submissions)
    expect(objectsOf(p, { limit: 100 })).toBe(1 + 1 + 100 * 12);
    expect(requestedPoints(p, { limit: 100 })).toBe(2);
    // The default limit (20) where the variable is omitted; more than 100 counts as 100.
    expect(objectsOf(p, {})).toBe(2 + 20 * 12);
    expect(requestedPoints(p, { limit: 5000 })).toBe(2);
    expect(requestedPoints(p, {})).toBe(1);
  });

  it("uses a variable's default only when the variable is left out: sent as null, the field's own default", () => {
    const p = plan('query($l: Int = 100) { forms(limit: $l) { pagination { limit } data { latestSubmissions(limit: 9) { id } } } }');
    // Omitted: 1 + 1 + 100 × (1 + 9) = 1002 objects, 2 points.
    expect(objectsOf(p, {})).toBe(2 + 100 * 10);
    // null: the argument is null, which runs at the field's default of 20 (no default replaces an explicit null).
    expect(objectsOf(p, { l: null })).toBe(2 + 20 * 10);
    expect(requestedPoints(p, { l: null })).toBe(1);
    expect(objectsOf(p, { l: 7 })).toBe(2 + 7 * 10);
  });

  it('charges what came back: every object and list element, nulls and scalars free', () => {
    const p = plan(query);
    const data = {
      forms: {
        data: many(60, (i) => ({ id: i, name: 'F', domain: i % 2 ? null : { id: 1, domain: 'a.example' }, latestSubmissions: many(10, (j) => ({ id: j, createdAt: 'x' })) })),
        pagination: { total: 60, pages: 1 },
      },
    };
    // 1 + 1 + 60 forms + 30 domains + 600 submissions = 692 objects
    expect(actualPoints(p, data)).toBe(1);
    data.forms.data.push(...many(40, (i) => ({ id: i, name: 'F', domain: { id: 1, domain: 'a.example' }, latestSubmissions: many(10, (j) => ({ id: j, createdAt: 'x' })) })));
    // 1 + 1 + 100 + 70 + 1000 = 1172
    expect(actualPoints(p, data)).toBe(2);
  });
});

describe('aliases', () => {
  it('count each alias as its own field', () => {
    const aliases = many(33, (i) => `f${i}: forms(limit: 100) { data { id latestSubmissions(limit: 5) { id } } }`).join('\n');
    const p = plan(`{ ${aliases} }`);
    // 33 × (1 page + 100 × (1 + 5))
    expect(objectsOf(p)).toBe(33 * 601);
    expect(requestedPoints(p)).toBe(Math.ceil((33 * 601) / 1000));
    const page = { data: many(100, (i) => ({ id: i, latestSubmissions: many(5, (j) => ({ id: j })) })) };
    expect(actualPoints(p, Object.fromEntries(many(33, (i) => [`f${i}`, page])))).toBe(20);
    expect(actualPoints(p, { f0: page })).toBe(1);
  });
});

describe('fragments', () => {
  it('merge with the fields they sit beside, as execution merges them (a field counted once per response key)', () => {
    const withFragments = plan(`
      query { forms(limit: 10) { ...Page data { id } } }
      fragment Page on FormPage { data { ...Form } pagination { total } }
      fragment Form on Form { id latestSubmissions { id } domain { id } }`);
    const inline = plan(`{ forms(limit: 10) { data { id latestSubmissions { id } domain { id } } pagination { total } } }`);
    expect(withFragments).toStrictEqual(inline);
    // latestSubmissions' own default (5): 1 + 1 + 10 × (1 + 5 + 1)
    expect(objectsOf(withFragments)).toBe(72);
    expect(requestedPoints(withFragments)).toBe(1);
  });

  it('leave out what @skip(if: true) / @include(if: false) leave out', () => {
    expect(objectsOf(plan(`{ forms(limit: 10) { data @skip(if: true) { id } pagination @include(if: false) { total } } }`))).toBe(1);
  });
});

describe('mutations', () => {
  it('cost 1 point per root field, whatever they select and return', () => {
    const p = plan(`mutation {
      a: archiveForm(id: 1) { id fields { id } }
      b: archiveForm(id: 2) { id }
      revokeApiKey(id: 3)
      __typename
    }`);
    expect(p).toStrictEqual({ kind: 'mutation', rootFields: 3 });
    expect(requestedPoints(p)).toBe(3);
    expect(actualPoints(p, { a: null, b: null, revokeApiKey: true })).toBe(3);
  });
});

describe('free and minimum operations', () => {
  it('rateLimit alone (and __typename) costs 0; introspection alone costs 1; beside data they weigh nothing', () => {
    expect(requestedPoints(plan('{ rateLimit { limit remaining used resetAt } __typename }'))).toBe(0);
    expect(actualPoints(plan('{ rateLimit { limit } }'), { rateLimit: { limit: 5000 } })).toBe(0);
    const introspection = plan('{ __schema { types { name fields { name } } } }');
    expect([requestedPoints(introspection), actualPoints(introspection, { __schema: { types: many(500, () => ({ name: 'x', fields: [] })) } })]).toStrictEqual([1, 1]);
    expect(objectsOf(plan('{ rateLimit { limit } webhook(id: 1) { id } }'))).toBe(1);
  });

  it('counts nullable objects as present before, and only those returned after', () => {
    const p = plan('{ form(id: 1) { id domain { id } } }');
    expect(objectsOf(p)).toBe(2);
    expect(actualPoints(p, { form: null })).toBe(1);
  });
});

describe('the plan cache', () => {
  it('plans a document once per operation name', () => {
    const planOf = createCostPlanCache(schema);
    const document = parse('query A { forms { data { id } } } query B { rateLimit { limit } }');
    expect(planOf(document, 'A')).toBe(planOf(document, 'A'));
    expect(planOf(document, 'B')).toStrictEqual({ kind: 'free' });
    expect(planOf(document, 'C')).toBeUndefined();
  });
});
