import type { Metric } from 'prom-client';

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

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, kept as plain numbers per series and
 * written out as prom-client's counter and histogram would be when scraped. prom-client's own
 * labelled children hash their labels on every increment; the read path answers tens of
 * thousands of requests a second, so each request here is a map lookup and a few additions.
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

  /** The two metrics as prom-client's registry writes them (it asks each registered metric for `get()`). */
  metrics(): Metric[] {
    const all = () => this.series;
    const counter = {
      name: 'http_requests_total',
      help: 'Requests answered, by service, method, route template and status.',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name: counter.name,
        help: counter.help,
        type: counter.type,
        aggregator: counter.aggregator,
        values: all().map((series): MetricValue => ({ value: series.count, labels: series.labels })),
      }),
    };
    const histogram = {
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its response written, by service, method, route template and status.',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({
        name: histogram.name,
        help: histogram.help,
        type: histogram.type,
        aggregator: histogram.aggregator,
        values: all().flatMap((series): MetricValue[] => {
          let cumulative = 0;
          const buckets = LATENCY_BUCKETS.map((bound, index) => {
            cumulative += series.perBucket[index]!;
            return {
              metricName: `${histogram.name}_bucket`,
              labels: { ...series.labels, le: bound },
              value: cumulative,
            };
          });
          return [
            ...buckets,
            {
              metricName: `${histogram.name}_bucket`,
              labels: { ...series.labels, le: '+Inf' },
              value: series.count,
            },
            { metricName: `${histogram.name}_sum`, labels: series.labels, value: series.sum },
            { metricName: `${histogram.name}_count`, labels: series.labels, value: series.count },
          ];
        }),
      }),
    };
    // prom-client's registry needs only a name and get() of a metric; its Metric type names its own classes.
    return [counter as unknown as Metric, histogram as unknown as Metric];
  }
}
