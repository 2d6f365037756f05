import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlOperations } from '../infra/metrics.js';
import { startChildSpan } from '../infra/tracing.js';

const outcome = (result: ExecutionResult): 'ok' | 'error' => (result.errors?.length ? 'error' : 'ok');

const operationType = (document: DocumentNode, operationName: string | null | undefined): string =>
  getOperationAST(document, operationName)?.operation ?? 'query';

/**
 * `graphql_operations_total{type,outcome}` (decisions §7.5): every operation /graphql executes, `error` when its
 * result carries errors (a field's refusal included) or validation refused it. A subscription counts once, when it starts.
 * While tracing exports, each execution is a span `graphql <type>` inside the request's (the operation's name is the
 * client's text: not recorded).
 */
export function useOperationMetrics(): Plugin {
  return {
    // A document refused by validation never executes; it is still an operation that failed.
    onValidate({ params }) {
      return ({ valid }) => {
        if (!valid) graphqlOperations.inc({ type: operationType(params.documentAST, null), outcome: 'error' });
      };
    },
    onExecute({ args }) {
      const type = operationType(args.document, args.operationName);
      const span = startChildSpan(`graphql ${type}`, { kind: 'internal', attributes: { 'graphql.operation.type': type } });
      return {
        onExecuteDone({ result }) {
          // An incremental (streamed) result has no single outcome: its start is counted as ok.
          const done = Symbol.asyncIterator in result ? 'ok' : outcome(result);
          graphqlOperations.inc({ type, outcome: done });
          span?.end({ failed: done === 'error' });
        },
      };
    },
    onSubscribe({ args }) {
      return {
        onSubscribeResult({ result }) {
          graphqlOperations.inc({ type: 'subscription', outcome: Symbol.asyncIterator in result ? 'ok' : outcome(result) });
        },
      };
    },
  };
}
