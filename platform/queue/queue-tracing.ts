import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

/** The trace context a message carries: W3C `traceparent` (and `tracestate`) header values. */
export type TraceCarrier = Record<string, string>;

const tracer = trace.getTracer('config-library-queue');

/**
 * Runs a publish in a producer span (`<topic> publish`), handing it the trace context to send
 * with the message. Without tracing configured the API's tracer makes no span and the carrier
 * stays empty (decisions "Traces").
 */
export function publishing<T>(topic: string, publish: (carrier: TraceCarrier) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(
    `${topic} publish`,
    {
      kind: SpanKind.PRODUCER,
      attributes: { 'messaging.destination.name': topic, 'messaging.operation.type': 'send' },
    },
    (span) => {
      const carrier: TraceCarrier = {};
      propagation.inject(context.active(), carrier);
      return ended(span, () => publish(carrier));
    },
  );
}

/** Runs a message's handling in a consumer span (`<topic> process`) that continues the publisher's trace. */
export function consuming<T>(
  topic: string,
  consumer: string,
  carrier: TraceCarrier | undefined,
  handle: () => Promise<T>,
): Promise<T> {
  const parent = carrier ? propagation.extract(context.active(), carrier) : context.active();
  return tracer.startActiveSpan(
    `${topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.destination.name': topic,
        'messaging.consumer.group.name': consumer,
        'messaging.operation.type': 'process',
      },
    },
    parent,
    (span) => ended(span, handle),
  );
}

async function ended<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
