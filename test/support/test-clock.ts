import type { Clock } from '../../platform/time/clock.js';

/** A clock tests move by hand, so expiry is tested without sleeping. */
export class TestClock implements Clock {
  private current: Date;

  constructor(start = new Date()) {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}
