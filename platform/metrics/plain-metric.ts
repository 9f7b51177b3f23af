import type { Metric } from 'prom-client';

/** One line of a metric as prom-client's registry writes it. */
export interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  /** For a histogram's `_bucket`, `_sum` and `_count` lines. */
  metricName?: string;
}

/**
 * A metric whose values are kept as plain numbers by its owner and read only when scraped: the
 * registry asks each metric it holds for `get()`. prom-client's own classes hash their labels on
 * every increment, which the read path's profile showed; these cost an addition.
 */
export function plainMetric(
  name: string,
  help: string,
  type: 'counter' | 'gauge' | 'histogram',
  values: () => MetricValue[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
  };
  // The registry needs only a name and get(); prom-client's Metric type names its own classes.
  return metric as unknown as Metric;
}
