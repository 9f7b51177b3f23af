import { farFromLimit } from './credit-gate.js';

describe('decisions "The credit gate": a call is let through on a recent balance only far from the limit (spec 8 rule 3 otherwise)', () => {
  it('needs 100 calls worth left after the call', () => {
    expect(farFromLimit(1_011, 1_000, 10)).toBe(true);
    expect(farFromLimit(1_009, 1_000, 10)).toBe(false);
  });

  it('and a twentieth of the credits', () => {
    expect(farFromLimit(50_001, 1_000_000, 1)).toBe(true);
    expect(farFromLimit(49_999, 1_000_000, 1)).toBe(false);
  });

  it('so the default 1000 credits at a preview cost of 10 always read the balance', () => {
    expect(farFromLimit(1_000, 1_000, 10)).toBe(false);
  });
});
