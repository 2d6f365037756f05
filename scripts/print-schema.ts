/** Prints the GraphQL schema to schema.graphql (committed; CI fails when it drifts from the code). */
import { writeFileSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { toSchema } from '../src/schema/index.js';

writeFileSync('schema.graphql', `${printSchema(lexicographicSortSchema(toSchema()))}\n`);
console.log('schema.graphql written');
