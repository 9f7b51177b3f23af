/**
 * A library set's slug: how an import file names a parent (spec 4.1 "Import": `set.parent` is
 * the slug of another set in the organization or in the same file). A set made without one
 * takes its name's: lower case, letters and digits kept (accents dropped), every other run of
 * characters one hyphen. Slugs are unique in an organization without regard to case.
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'set' : slug;
}

/** What two slugs are compared by. */
export function slugKey(slug: string): string {
  return slug.toLowerCase();
}

/** `base`, or the first of `base-2`, `base-3`, … that no set has taken (`taken` holds slug keys). */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slugKey(base))) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(slugKey(candidate))) return candidate;
  }
}
