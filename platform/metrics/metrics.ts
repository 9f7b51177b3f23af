import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { AnsweredRequest, RequestObserver } from '../http/request-record.js';
import type { Logger } from '../logging/logger.js';
import { plainMetric, type MetricValue } from './plain-metric.js';
import { RequestSeriesSet } from './request-series.js';

/** Something counted on a hot path: one addition, no labels to hash. */
export interface Tally {
  inc(): void;
}

/** One series of a gauge read when scraped: which gauge, its labels and value. */
export interface Sample {
  gauge: string;
  labels: Record<string, string>;
  value: number;
}

/** A plain count per service, read when scraped. */
type PerService = Map<string, { count: number }>;

/**
 * A process's metrics, in the Prometheus text format at `/metrics` on each of its services' ports
 * and the gateway's (decisions "Metrics"). Every service of the process writes into one registry,
 * its series told apart by a `service` label, so whichever port is scraped shows the process whole.
 * Labels are bounded: route templates, methods, statuses, services, topics; never an id.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestSeriesSet();
  /** Requests arrived and not yet answered, by service. */
  private readonly inFlight: PerService = new Map();
  private readonly tallies = new Map<string, PerService>();
  /** What reads the sampled gauges, each source once per scrape; and what they read last. */
  private readonly sources: (() => Promise<Sample[]>)[] = [];
  private sampledValues = new Map<string, MetricValue[]>();

  constructor(private readonly logger: Logger) {
    collectDefaultMetrics({ register: this.registry });
    for (const metric of this.requests.metrics()) this.registry.registerMetric(metric);
    this.registerPerService(
      'http_requests_in_flight',
      'Requests arrived and not yet answered, by service.',
      'gauge',
      this.inFlight,
    );
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

  /** A counter of what a service counts itself, labelled with the service only. */
  tally(name: string, help: string, service: string): Tally {
    let counts = this.tallies.get(name);
    if (!counts) {
      counts = new Map();
      this.tallies.set(name, counts);
      this.registerPerService(name, help, 'counter', counts);
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
   * Gauges read when scraped (a table's depth, a consumer's lag), with the source that answers
   * their samples: each source is read once per scrape, however many gauges it feeds. A source
   * that fails leaves its series out of that scrape, logged, and the rest is still served:
   * metrics are most wanted when something is down.
   */
  sampled(gauges: { name: string; help: string }[], source: () => Promise<Sample[]>): void {
    for (const { name, help } of gauges) {
      if (this.registry.getSingleMetric(name)) continue;
      this.registry.registerMetric(
        plainMetric(name, help, 'gauge', () => this.sampledValues.get(name) ?? []),
      );
    }
    this.sources.push(source);
  }

  /** Answers `GET /metrics` (and HEAD) before any route, without a token; true when it did. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    this.readSampled()
      .then(() => this.registry.metrics())
      .then(
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

  private async readSampled(): Promise<void> {
    const values = new Map<string, MetricValue[]>();
    await Promise.all(
      this.sources.map(async (read) => {
        try {
          for (const { gauge, labels, value } of await read()) {
            const list = values.get(gauge) ?? [];
            list.push({ labels, value });
            values.set(gauge, list);
          }
        } catch (error) {
          this.logger.warn({ err: error }, 'a metric could not be read');
        }
      }),
    );
    this.sampledValues = values;
  }

  private registerPerService(
    name: string,
    help: string,
    type: 'counter' | 'gauge',
    counts: PerService,
  ): void {
    this.registry.registerMetric(
      plainMetric(name, help, type, () =>
        [...counts].map(([service, { count }]) => ({ labels: { service }, value: count })),
      ),
    );
  }
}
