import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { parseIsoDateTime } from '../domain/created-range.js';
import { builder } from './builder.js';

builder.scalarType('DateTime', {
  description: 'ISO 8601 date-time with an offset or Z',
  serialize: (value) => value.toISOString(),
  // The same parser as REST query parameters: a time without an offset would be read in the server's zone.
  parseValue: (value) => {
    const date = typeof value === 'string' ? parseIsoDateTime(value) : null;
    if (!date) throw new GraphQLError('DateTime must be an ISO 8601 date-time with an offset or Z');
    return date;
  },
});

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literal(field.value)]));
    default:
      throw new GraphQLError('Variables are not allowed inside JSON literals');
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});
