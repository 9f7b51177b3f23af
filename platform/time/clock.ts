/**
 * Where "now" comes from. Services take a Clock instead of calling Date.now(), so the
 * composition root decides what time it is (tests move it forward instead of sleeping).
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
