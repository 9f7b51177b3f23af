/** A tag as a writer names it: its id, or `Group/Tag` (spec 2 "Variable value": mixed freely). */
export type TagRef = number | string;

export interface TagName {
  group: string;
  tag: string;
}

/**
 * `Group/Tag` split at its first `/` (a group name holds none; a tag name may). A text without a
 * `/`, or with an empty part, names no tag.
 */
export function tagName(ref: string): TagName | undefined {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  return { group: ref.slice(0, slash), tag: ref.slice(slash + 1) };
}

/** A known tag, to match references against. */
export interface KnownTag {
  id: number;
  name: string;
  groupName: string;
}

/**
 * The ids of the tags the references name (spec 4.1: group part without regard to case, tag part
 * with it), each once, in the order first named. A reference that names nothing is skipped, not
 * refused (spec 2 "Variable value").
 */
export function matchTags(refs: readonly TagRef[], known: readonly KnownTag[]): number[] {
  const byId = new Map(known.map((tag) => [tag.id, tag]));
  const byName = new Map(known.map((tag) => [`${tag.groupName.toLowerCase()}/${tag.name}`, tag]));
  const ids = refs.flatMap((ref) => {
    if (typeof ref === 'number') return byId.has(ref) ? [ref] : [];
    const name = tagName(ref);
    const tag = name && byName.get(`${name.group.toLowerCase()}/${name.tag}`);
    return tag ? [tag.id] : [];
  });
  return [...new Set(ids)];
}
