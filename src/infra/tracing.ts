import type { Config } from '../config.js';
import { errorKind, logger } from './log.js';
import type { OpenSpan, SpanExporter, SpanOptions } from './span.js';
import { childContext, currentTrace, type TraceContext } from './trace-context.js';

/**
 * Spans (decisions §7.5): a request's, the relay's fan-out of each event, each job's. Without an OTLP endpoint no
 * OpenTelemetry module is even loaded (tracing-sdk.ts comes in by a dynamic import only when one is set): a span is
 * then just a new context (the parent's trace id, a new span id) that log lines and jobs carry on, and nothing is
 * exported or slower.
 *
 * Attributes are templates and bounded names only (a route template, a method, a status, a queue): never an id, a
 * key, an email or a URL, as for metric labels.
 */

let exporter: SpanExporter | null = null;

const untraced = (): void => undefined;

/** Starts exporting spans when the configuration names an endpoint; a no-op (and no module loaded) otherwise. */
export async function startTracing(config: Pick<Config, 'otelEndpoint' | 'otelServiceName'>, defaultServiceName: string): Promise<void> {
  if (!config.otelEndpoint || exporter) return;
  const { createSpanExporter } = await import('./tracing-sdk.js');
  exporter = createSpanExporter(config.otelServiceName ?? defaultServiceName);
}

/** A span, child of `parent` (an incoming traceparent, a job's) or the root of a new trace. */
export function startSpan(name: string, parent: TraceContext | null, options: SpanOptions): OpenSpan {
  return exporter ? exporter.start(name, parent, options) : { context: childContext(parent), end: untraced };
}

/**
 * A span inside the work under way (a GraphQL execution, an outbound fetch), child of its context. Only while
 * exporting: otherwise nothing (such a span hands its context to nothing, so it needs no ids either).
 */
export function startChildSpan(name: string, options: SpanOptions): OpenSpan | null {
  return exporter ? exporter.start(name, currentTrace(), options) : null;
}

/** The longest a stop waits for the last spans to reach the collector. */
const FLUSH_AT_STOP_MS = 2_000;

/**
 * Graceful shutdown: the spans still buffered are sent, within `msLeft` and at most 2 s. A collector that is down or
 * slow costs those spans and one warning, never the stop's exit code: the service's own work was drained (the
 * exporter alone retried for its 10 s timeout and failed the stop, with the collector down).
 */
export async function stopTracing(msLeft: number): Promise<void> {
  const stopping = exporter;
  exporter = null;
  if (!stopping) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.min(msLeft, FLUSH_AT_STOP_MS))));
  const outcome = await Promise.race([stopping.shutdown().then(() => 'sent' as const, (error: unknown) => error), late]);
  clearTimeout(timer);
  if (outcome === 'late') logger.warn({ waitedMs: Math.min(msLeft, FLUSH_AT_STOP_MS) }, 'tracing: the last spans were not sent before the stop');
  else if (outcome !== 'sent') logger.warn({ error: errorKind(outcome) }, 'tracing: the last spans could not be sent');
}
