import type { TraceContext } from './trace-context.js';

/** The span interface of tracing.ts, which its OpenTelemetry side (tracing-sdk.ts) implements. */

export type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanOptions {
  kind: 'server' | 'consumer' | 'client' | 'internal';
  attributes?: SpanAttributes;
}

export interface SpanEnd {
  /** The name once it is known (a request's route template is known after routing). */
  name?: string;
  attributes?: SpanAttributes;
  failed?: boolean;
}

export interface OpenSpan {
  /** What the work runs under (`runInTrace`) and hands on to what it causes. */
  readonly context: TraceContext;
  end(outcome?: SpanEnd): void;
}

export interface SpanExporter {
  start(name: string, parent: TraceContext | null, options: SpanOptions): OpenSpan;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}
