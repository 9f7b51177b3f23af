import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AnsweredRequest, RequestObserver } from '../http/request-record.js';
import type { Logger } from '../logging/logger.js';

/** Something counted on a hot path: one increment, no labels to hash. */
export interface Tally {
  inc(): void;
}

/** One series of a gauge read when scraped: its labels and value. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Request latencies in seconds: the read path answers in under a millisecond, a large import in seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type RequestLabel = 'service' | 'method' | 'route' | 'status';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A process's metrics, in the Prometheus text format at `/metrics` on each of its services' ports
 * and the gateway's (decisions "Metrics"). Every service of the process writes into one registry,
 * its series told apart by a `service` label, so whichever port is scraped shows the process whole.
 * Labels are bounded: route templates, methods, statuses, services, topics; never an id.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<RequestLabel>;
  private readonly latency: Histogram<RequestLabel>;
  private readonly inFlight: Gauge<'service'>;
  private readonly sampled = new Map<string, (() => Promise<Sample[]>)[]>();

  constructor(private readonly logger: Logger) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by service, method, route template and status.',
      labelNames: ['service', 'method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its response written, by service, method, route template and status.',
      labelNames: ['service', 'method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.inFlight = new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests arrived and not yet answered, by service.',
      labelNames: ['service'],
      registers,
    });
  }

  /**
   * Counts a service's requests. The labelled children are kept per method, route and status, so
   * an answered request costs a map lookup and two increments, not a hash of its labels.
   */
  requestObserver(service: string): RequestObserver {
    const inFlight = this.inFlight.labels(service);
    inFlight.set(0);
    const children = new Map<
      string,
      { count: Counter.Internal; latency: Histogram.Internal<RequestLabel> }
    >();
    return {
      arrived: () => inFlight.inc(),
      answered: (answered: AnsweredRequest) => {
        inFlight.dec();
        const method = METHODS.has(answered.method) ? answered.method : 'OTHER';
        const route = answered.route ?? '(none)';
        const key = `${method} ${answered.status} ${route}`;
        let child = children.get(key);
        if (!child) {
          const labels = { service, method, route, status: String(answered.status) };
          child = { count: this.requests.labels(labels), latency: this.latency.labels(labels) };
          children.set(key, child);
        }
        child.count.inc();
        child.latency.observe(answered.durationMs / 1000);
      },
    };
  }

  /** A counter without labels beyond the service's, for what a service counts itself. */
  tally(name: string, help: string, service: string): Tally {
    const existing = this.registry.getSingleMetric(name) as Counter<'service'> | undefined;
    const counter =
      existing ?? new Counter({ name, help, labelNames: ['service'], registers: [this.registry] });
    return counter.labels(service);
  }

  /**
   * A gauge read from its sources when scraped (a table's depth, a consumer's lag). A source that
   * fails leaves its series out of that scrape, logged, and the rest is still served: metrics are
   * most wanted when something is down.
   */
  gauge(name: string, help: string, labelNames: string[], source: () => Promise<Sample[]>): void {
    const sources = this.sampled.get(name);
    if (sources) {
      sources.push(source);
      return;
    }
    const all = [source];
    this.sampled.set(name, all);
    const logger = this.logger;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const read of all) {
          try {
            for (const sample of await read()) this.set(sample.labels, sample.value);
          } catch (error) {
            logger.warn({ err: error, metric: name }, 'a metric could not be read');
          }
        }
      },
    });
  }

  /** Answers `GET /metrics` (and HEAD) before any route, without a token; true when it did. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    this.registry.metrics().then(
      (text) => {
        res
          .writeHead(200, { 'content-type': this.registry.contentType })
          .end(req.method === 'HEAD' ? '' : text);
      },
      (error: unknown) => {
        this.logger.error({ err: error }, 'the metrics could not be written');
        res
          .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
          .end('The metrics could not be written.');
      },
    );
    return true;
  }
}
