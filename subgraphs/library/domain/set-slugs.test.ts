import { freeSlug, slugOf } from './set-slugs.js';

describe('spec 4.1 "Import": a set made without a slug takes its name\'s (decisions "Set slugs")', () => {
  it.each([
    ['Web API', 'web-api'],
    ['  Payments / EU  ', 'payments-eu'],
    ['Überwachung', 'uberwachung'],
    ['Config_v2.1', 'config-v2-1'],
    ['東京', '東京'],
    ['***', 'set'],
  ])('%j → %j', (name, slug) => {
    expect(slugOf(name)).toBe(slug);
  });

  it("takes the first free numbered slug when the name's is taken, without regard to case", () => {
    expect(freeSlug('web', new Set())).toBe('web');
    expect(freeSlug('web', new Set(['web']))).toBe('web-2');
    expect(freeSlug('Web', new Set(['web', 'web-2']))).toBe('Web-3');
  });
});
