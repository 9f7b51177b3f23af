/** Flushes the spans not yet exported and stops tracing. */
export type StopTracing = () => Promise<void>;

/**
 * Starts OpenTelemetry tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, and answers how to stop it; otherwise loads
 * nothing and answers undefined, so a process without it pays nothing (decisions "Traces").
 * Call it before the system's modules load: the instrumentations hook `http`, `pg` and `graphql`
 * as they are first required.
 */
export async function startTracing(
  env: NodeJS.ProcessEnv,
  processes: readonly string[],
): Promise<StopTracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const { startTracingSdk } = await import('./tracing-sdk.js');
  return startTracingSdk(
    env.OTEL_SERVICE_NAME ??
      (processes.length === 0 ? 'config-library' : `config-library-${processes.join('-')}`),
  );
}
