import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { StopTracing } from './tracing.js';

/**
 * The OpenTelemetry SDK, loaded only when traces are exported (tracing.ts): spans batched to OTLP
 * over HTTP (the exporter reads the OTEL_EXPORTER_OTLP_* settings), W3C trace context in and out
 * of every HTTP request, and spans of HTTP servers and clients (the gateway's calls to the
 * subgraphs among them), GraphQL parsing, validation and execution, and PostgreSQL queries. The
 * queue's spans are made by platform/queue itself (queue-tracing.ts).
 */
export function startTracingSdk(serviceName: string): StopTracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer provider, the AsyncLocalStorage context manager and the W3C propagator.
  provider.register();
  const unregister = registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation(),
      new PgInstrumentation(),
      // A span per field would swamp a trace: resolvers that only read a property make none.
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true }),
    ],
  });
  return async () => {
    unregister();
    await provider.shutdown();
  };
}
