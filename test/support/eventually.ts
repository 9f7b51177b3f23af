/**
 * Retries an assertion until it passes or the time is up, for what the system does
 * asynchronously (queue delivery). Polls; the clock under test is not involved.
 */
export async function eventually<T>(
  assertion: () => Promise<T>,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
