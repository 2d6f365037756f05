import { getOperationAST, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlOperations } from '../infra/metrics.js';

const outcome = (result: ExecutionResult): 'ok' | 'error' => (result.errors?.length ? 'error' : 'ok');

const operationType = (document: DocumentNode, operationName: string | null | undefined): string =>
  getOperationAST(document, operationName)?.operation ?? 'query';

/**
 * `graphql_operations_total{type,outcome}` (decisions §7.5): every operation /graphql executes, `error` when its
 * result carries errors (a field's refusal included) or validation refused it. A subscription counts once, when it starts.
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
      return {
        onExecuteDone({ result }) {
          // An incremental (streamed) result has no single outcome: its start is counted as ok.
          graphqlOperations.inc({ type, outcome: Symbol.asyncIterator in result ? 'ok' : outcome(result) });
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
