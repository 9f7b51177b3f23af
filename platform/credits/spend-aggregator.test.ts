import { settled } from './spend-aggregator.js';

describe('decisions "The credit gate": spend written to the outbox stays subtracted until a balance shows it counted (spec 8 rule 3)', () => {
  it('is still uncounted while the used credits have not grown since the read before it was written', () => {
    expect(settled({ amount: 5, baseline: 40 }, 40)).toEqual({ amount: 5, baseline: 40 });
  });

  it('is counted as far as the used credits grew, and wholly once they grew by all of it', () => {
    expect(settled({ amount: 5, baseline: 40 }, 43)).toEqual({ amount: 2, baseline: 43 });
    expect(settled({ amount: 5, baseline: 40 }, 45)).toBeUndefined();
    expect(settled({ amount: 5, baseline: 40 }, 60)).toBeUndefined();
  });

  it('spec 3: after a payment reset the used credits to 0, growth is counted from 0', () => {
    expect(settled({ amount: 5, baseline: 40 }, 0)).toEqual({ amount: 5, baseline: 0 });
    expect(settled({ amount: 5, baseline: 40 }, 3)).toEqual({ amount: 2, baseline: 3 });
  });
});
