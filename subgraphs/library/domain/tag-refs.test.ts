import { matchTags, tagName } from './tag-refs.js';

const known = [
  { id: 1, name: 'Prod', groupName: 'Environment' },
  { id: 2, name: 'prod', groupName: 'Environment' },
  { id: 3, name: 'eu/west', groupName: 'Region' },
];

describe('spec 2 "Variable value" / 4.1 rule 6: tags written as Group/Tag or ids, mixed freely', () => {
  it('matches the group part without regard to case and the tag part with it', () => {
    expect(matchTags(['environment/Prod', 'ENVIRONMENT/prod'], known)).toEqual([1, 2]);
    expect(matchTags(['Environment/PROD'], known)).toEqual([]);
  });

  it('takes integer ids beside names, each tag once', () => {
    expect(matchTags([3, 'Environment/Prod', 1], known)).toEqual([3, 1]);
  });

  it('splits at the first "/": a tag name may hold one', () => {
    expect(tagName('Region/eu/west')).toEqual({ group: 'Region', tag: 'eu/west' });
    expect(matchTags(['region/eu/west'], known)).toEqual([3]);
  });

  it('skips what names nothing, without refusing: unknown ids, names, groups, and malformed text', () => {
    expect(
      matchTags([99, 'Environment/Staging', 'Nowhere/Prod', 'Prod', '/Prod', 'Environment/'], known),
    ).toEqual([]);
  });
});
