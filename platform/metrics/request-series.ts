import type { Metric } from 'prom-client';
import { plainMetric, type MetricValue } from './plain-metric.js';

/** Request latencies in seconds: the read path answers in under a millisecond, a large import in seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

type Labels = Readonly<Record<'service' | 'method' | 'route' | 'status', string>>;

/** The requests of one service, method, route template and status: how many, their total time, and per bucket. */
export class RequestSeries {
  count = 0;
  sum = 0;
  /** Observations per bucket (each counted in the first whose bound it is within), made cumulative when scraped. */
  readonly perBucket = new Float64Array(LATENCY_BUCKETS.length);

  constructor(readonly labels: Labels) {}

  observe(seconds: number): void {
    this.count += 1;
    this.sum += seconds;
    for (let index = 0; index < LATENCY_BUCKETS.length; index++) {
      if (seconds <= LATENCY_BUCKETS[index]!) {
        this.perBucket[index]! += 1;
        return;
      }
    }
  }
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, kept as plain numbers per series
 * (plain-metric.ts): the read path answers tens of thousands of requests a second, so each
 * request here is a map lookup and a few additions.
 */
export class RequestSeriesSet {
  private readonly series: RequestSeries[] = [];

  /**
   * A service's series, found by route template (the same string each time, whose hash V8 keeps),
   * then by status and method as one number: no string is made per request.
   */
  forService(service: string): (method: string, route: string, status: number) => RequestSeries {
    const byRoute = new Map<string, Map<number, RequestSeries>>();
    return (method, route, status) => {
      const methodIndex = METHODS.indexOf(method);
      const key = status * 16 + (methodIndex < 0 ? METHODS.length : methodIndex);
      let byStatus = byRoute.get(route);
      if (!byStatus) {
        byStatus = new Map();
        byRoute.set(route, byStatus);
      }
      let found = byStatus.get(key);
      if (!found) {
        found = new RequestSeries({
          service,
          method: methodIndex < 0 ? 'OTHER' : method,
          route,
          status: String(status),
        });
        byStatus.set(key, found);
        this.series.push(found);
      }
      return found;
    };
  }

  /** The two metrics as prom-client's registry writes them. */
  metrics(): Metric[] {
    const histogram = 'http_request_duration_seconds';
    return [
      plainMetric(
        'http_requests_total',
        'Requests answered, by service, method, route template and status.',
        'counter',
        () => this.series.map((series) => ({ value: series.count, labels: series.labels })),
      ),
      plainMetric(
        histogram,
        'Time from a request arriving to its response written, by service, method, route template and status.',
        'histogram',
        () =>
          this.series.flatMap((series): MetricValue[] => {
            let cumulative = 0;
            const bucket = (le: number | string, value: number) => ({
              metricName: `${histogram}_bucket`,
              labels: { ...series.labels, le },
              value,
            });
            return [
              ...LATENCY_BUCKETS.map((bound, index) =>
                bucket(bound, (cumulative += series.perBucket[index]!)),
              ),
              bucket('+Inf', series.count),
              { metricName: `${histogram}_sum`, labels: series.labels, value: series.sum },
              { metricName: `${histogram}_count`, labels: series.labels, value: series.count },
            ];
          }),
      ),
    ];
  }
}
