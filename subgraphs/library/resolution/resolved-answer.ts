import { createHash } from 'node:crypto';
import { resolve } from '../domain/resolution.js';
import { secretMarks } from '../domain/sensitive-values.js';
import { substitute, type Substituted, type SubstitutionInput } from '../domain/substitution.js';
import type { LibrarySnapshot } from './library-snapshot.js';
import type { PreviewItemView } from './resolution.schemas.js';

/** What a request asks to have resolved, with the ids the snapshot gave its sets and tags. */
export interface ResolutionRequest {
  sets: readonly number[];
  tags: ReadonlySet<number>;
  preview: boolean;
  substitute: boolean;
  /** Whether the caller reads the secrets of this set (VariableReadSecrets for it). */
  revealsSet(setId: number): boolean;
}

/** An answer as it is sent and kept: its JSON bytes, made once, and their ETag. */
export interface ResolvedAnswer {
  body: Buffer;
  etag: string;
}

/**
 * Resolves the request against the snapshot (spec 4.1 "Resolution rules" and "Substitution") and
 * writes the answer: the flat map, or the preview's value objects, by name. Secrets are real
 * text throughout and withheld only here (rule 7): the flat map gives a secret the caller may not
 * read as its hint, the preview as an empty value beside its hint and hash; a value that embeds
 * a secret has a hint and hash of its own text.
 */
export function resolvedAnswer(snapshot: LibrarySnapshot, request: ResolutionRequest): ResolvedAnswer {
  const winners = resolve(snapshot, request.sets, request.tags);
  const inputs = new Map<string, SubstitutionInput>();
  for (const [key, { variable, value }] of winners) {
    inputs.set(key, {
      name: variable.name,
      text: value.text,
      sensitive: variable.sensitive,
      scanned: variable.type !== 'Number' && variable.type !== 'Boolean',
      setId: variable.setId,
    });
  }
  const substituted = request.substitute ? substitute(inputs) : asStored(inputs);
  const items: [string, string | PreviewItemView][] = [];
  for (const [key, { variable, value }] of winners) {
    const result = substituted.get(key)!;
    const shown = [...result.secretSets].every((setId) => request.revealsSet(setId));
    const marks = !result.sensitive
      ? { hint: null, hash: null }
      : result.composed || value.hint === null
        ? secretMarks(snapshot.organizationId, result.text)
        : { hint: value.hint, hash: value.hash };
    items.push([
      variable.name,
      request.preview
        ? {
            id: value.id,
            value: shown ? result.text : '',
            sensitive: result.sensitive,
            hint: marks.hint,
            hash: marks.hash,
            tags: value.tagIds.map((tagId) => snapshot.tags.get(tagId)!),
          }
        : shown
          ? result.text
          : (marks.hint ?? ''),
    ]);
  }
  items.sort(([a], [b]) => {
    const [x, y] = [a.toLowerCase(), b.toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const body = Buffer.from(JSON.stringify({ total: items.length, items: Object.fromEntries(items) }));
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The winners as stored, nothing replaced (preview with substitute=false). */
function asStored(inputs: ReadonlyMap<string, SubstitutionInput>): Map<string, Substituted> {
  return new Map(
    [...inputs].map(([key, input]) => [
      key,
      {
        text: input.text,
        sensitive: input.sensitive,
        secretSets: new Set(input.sensitive ? [input.setId] : []),
        composed: false,
      },
    ]),
  );
}
