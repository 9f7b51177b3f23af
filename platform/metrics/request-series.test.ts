import { RequestSeriesSet } from './request-series.js';

interface Value {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

describe('issue 13 item 1: request counts and latencies written as a Prometheus counter and histogram', () => {
  it('counts per service, method, route and status, with cumulative buckets, +Inf, sum and count', async () => {
    const set = new RequestSeriesSet();
    const library = set.forService('library');
    for (const seconds of [0.0004, 0.003, 20]) library('GET', '/variables/{id}', 200).observe(seconds);
    library('BREW', '/variables/{id}', 200).observe(0.001);
    const [counter, histogram] = set.metrics();
    const counted = (await counter!.get()).values as Value[];
    expect(counted).toEqual([
      { value: 3, labels: { service: 'library', method: 'GET', route: '/variables/{id}', status: '200' } },
      { value: 1, labels: { service: 'library', method: 'OTHER', route: '/variables/{id}', status: '200' } },
    ]);
    const values = ((await histogram!.get()).values as Value[]).filter((v) => v.labels.method === 'GET');
    const bucket = (le: number | string) =>
      values.find((v) => v.metricName === 'http_request_duration_seconds_bucket' && v.labels.le === le)
        ?.value;
    expect([
      bucket(0.0005),
      bucket(0.001),
      bucket(0.0025),
      bucket(0.005),
      bucket(10),
      bucket('+Inf'),
    ]).toEqual([1, 1, 1, 2, 2, 3]);
    expect(values.find((v) => v.metricName === 'http_request_duration_seconds_count')?.value).toBe(3);
    expect(values.find((v) => v.metricName === 'http_request_duration_seconds_sum')?.value).toBeCloseTo(
      20.0034,
    );
  });
});
