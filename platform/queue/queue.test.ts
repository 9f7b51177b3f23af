import { retryDelayMs } from './queue.js';

describe('decision "Queue": a failed message waits 0.5 s, doubling to at most 30 s', () => {
  it.each([
    [1, 500],
    [2, 1_000],
    [3, 2_000],
    [4, 4_000],
    [6, 16_000],
    [7, 30_000],
    [50, 30_000],
    [10_000, 30_000],
  ])('after delivery %d: %d ms', (deliveryCount, delayMs) => {
    expect(retryDelayMs(deliveryCount)).toBe(delayMs);
  });

  it('treats a delivery count below 1 as the first', () => {
    expect(retryDelayMs(0)).toBe(500);
    expect(retryDelayMs(-3)).toBe(500);
  });
});
