import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { TraceContext } from './trace-context.js';
import type { SpanExporter, SpanOptions } from './span.js';

const KIND: Record<SpanOptions['kind'], SpanKind> = { server: SpanKind.SERVER, consumer: SpanKind.CONSUMER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

/**
 * The OpenTelemetry side of tracing.ts, imported only when an OTLP endpoint is configured. OTLP over HTTP with JSON
 * bodies (the exporter reads OTEL_EXPORTER_OTLP_* itself: endpoint, headers, timeout); spans are batched and sent off
 * the request's path. Sampling follows the parent (an incoming traceparent's sampled flag), and samples new traces.
 *
 * Parents are passed explicitly (a request's incoming context, a job's stored one) rather than through OTel's
 * context manager, so no async hook is installed for it.
 */
export function createSpanExporter(serviceName: string): SpanExporter {
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': serviceName })),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  const tracer = provider.getTracer('widgets-gateway');
  const parentOf = (parent: TraceContext | null): Context =>
    parent ? trace.setSpanContext(ROOT_CONTEXT, { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true }) : ROOT_CONTEXT;
  return {
    start(name, parent, options) {
      const span = tracer.startSpan(name, { kind: KIND[options.kind], ...(options.attributes && { attributes: options.attributes }) }, parentOf(parent));
      const { traceId, spanId, traceFlags } = span.spanContext();
      return {
        context: { traceId, spanId, sampled: (traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED },
        end(outcome = {}) {
          if (outcome.name) span.updateName(outcome.name);
          if (outcome.attributes) span.setAttributes(outcome.attributes);
          if (outcome.failed) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
