import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { AnsweredRequest, RequestObserver } from '../http/request-record.js';
import type { Logger } from '../logging/logger.js';
import { RequestSeriesSet } from './request-series.js';

/** Something counted on a hot path: one increment, no labels to hash. */
export interface Tally {
  inc(): void;
}

/** One series of a gauge read when scraped: its labels and value. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A process's metrics, in the Prometheus text format at `/metrics` on each of its services' ports
 * and the gateway's (decisions "Metrics"). Every service of the process writes into one registry,
 * its series told apart by a `service` label, so whichever port is scraped shows the process whole.
 * Labels are bounded: route templates, methods, statuses, services, topics; never an id.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestSeriesSet();
  /** Requests arrived and not yet answered, by service: a plain number each, read when scraped. */
  private readonly inFlight = new Map<string, { count: number }>();
  private readonly sampled = new Map<string, (() => Promise<Sample[]>)[]>();
  private readonly tallies = new Map<string, Map<string, { count: number }>>();

  constructor(private readonly logger: Logger) {
    collectDefaultMetrics({ register: this.registry });
    for (const metric of this.requests.metrics()) this.registry.registerMetric(metric);
    const inFlight = this.inFlight;
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests arrived and not yet answered, by service.',
      labelNames: ['service'],
      registers: [this.registry],
      collect() {
        for (const [service, open] of inFlight) this.set({ service }, open.count);
      },
    });
  }

  /** Counts a service's requests: plain numbers per method, route and status, and those in flight. */
  requestObserver(service: string): RequestObserver {
    const seriesOf = this.requests.forService(service);
    const open = { count: 0 };
    this.inFlight.set(service, open);
    return {
      arrived: () => {
        open.count += 1;
      },
      answered: (answered: AnsweredRequest) => {
        open.count -= 1;
        seriesOf(answered.method, answered.route ?? '(none)', answered.status).observe(
          answered.durationMs / 1000,
        );
      },
    };
  }

  /**
   * A counter without labels beyond the service's, for what a service counts itself: a plain number
   * on the hot path, read when scraped.
   */
  tally(name: string, help: string, service: string): Tally {
    let counts = this.tallies.get(name);
    if (!counts) {
      const all = new Map<string, { count: number }>();
      counts = all;
      this.tallies.set(name, all);
      new Counter({
        name,
        help,
        labelNames: ['service'],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [of, tally] of all) this.inc({ service: of }, tally.count);
        },
      });
    }
    const tally = { count: 0 };
    counts.set(service, tally);
    return {
      inc: () => {
        tally.count += 1;
      },
    };
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
