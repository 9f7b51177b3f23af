import type { Caller } from '../../../platform/auth/caller.js';
import type { CreditCosts } from '../../../platform/config/credit-costs.js';
import type { CreditGate } from '../../../platform/credits/credit-gate.js';
import { NotFoundError } from '../../../platform/errors/domain-errors.js';
import { holdsForSet, requirePermission } from '../../../platform/permissions/authorize.js';
import { walkOrder } from '../domain/resolution.js';
import { tagName } from '../domain/tag-refs.js';
import { requireForSet } from '../set-scope.js';
import { tagKey, type LibrarySnapshot } from './library-snapshot.js';
import { resolvedAnswer, type ResolvedAnswer } from './resolved-answer.js';
import type { Tally } from '../../../platform/metrics/metrics.js';
import type { SnapshotCache } from './snapshot-cache.js';

export interface ResolutionDependencies {
  snapshots: SnapshotCache;
  credits: CreditGate;
  costs: () => CreditCosts;
  /** Counts reads answered from an answer already made for the library's revision, and those resolved anew. */
  answers: { hits: Tally; misses: Tally };
}

/** What a read asks for: the query of GET /variablevalues, or of its preview with `substitute`. */
export interface ValuesRead {
  sets: readonly number[];
  tags: readonly string[];
  preview: boolean;
  substitute: boolean;
  /** The ETag the caller holds (`If-None-Match`). */
  ifNoneMatch?: string | undefined;
}

/** An answer, or word that the caller's copy is current (304: nothing sent, nothing charged). */
export type ValuesAnswer = { current: false; answer: ResolvedAnswer } | { current: true; etag: string };

/**
 * A question's answer with the revision of the library it was answered from: an organization's
 * snapshots at one revision hold the same library, and a revision, unlike the snapshot, keeps
 * nothing alive (a caller who asked once would otherwise hold a whole library that has changed since).
 */
interface AskedBefore {
  revision: number;
  answer: ResolvedAnswer;
}

/** Questions remembered per caller; beyond this many, the caller's are forgotten. */
const QUESTIONS_PER_CALLER = 100;

/** Answers kept per organization and revision; beyond this many, an organization's are dropped. */
const MAX_ANSWERS_PER_ORGANIZATION = 1_000;

/**
 * The read path (spec 4.1 "Variable values (consumption)"): resolves sets and tags against the
 * organization's compiled library, each distinct question answered once per revision of the
 * library and then served as the same bytes, charged VariablePreviewCost per call.
 */
export class ResolutionService {
  private readonly answers = new Map<string, { revision: number; byQuestion: Map<string, ResolvedAnswer> }>();
  /** Each caller's recent questions with the revision they were answered at (callers are remembered per token). */
  private readonly askedBy = new WeakMap<Caller, Map<string, AskedBefore>>();

  constructor(private readonly deps: ResolutionDependencies) {}

  async read(caller: Caller | undefined, read: ValuesRead): Promise<ValuesAnswer> {
    const known = requirePermission(caller, 'VariableRead');
    const snapshot =
      this.deps.snapshots.loaded(known.organizationId) ??
      (await this.deps.snapshots.get(known.organizationId));
    const answer = this.answerFor(known, snapshot, read);
    if (read.ifNoneMatch !== undefined && matches(read.ifNoneMatch, answer.etag))
      return { current: true, etag: answer.etag };
    const cost = this.deps.costs().variablePreviewCost;
    if (this.deps.credits.chargeNow(known, cost)) return { current: false, answer };
    return this.deps.credits.charge(known, cost, () => Promise.resolve({ current: false as const, answer }));
  }

  /**
   * The answer to this caller's question: what it was a moment ago when the library has not
   * changed since (the same token asks the same question all day, and neither its checks nor
   * the answer can differ), else found, checked and answered anew.
   */
  private answerFor(caller: Caller, snapshot: LibrarySnapshot, read: ValuesRead): ResolvedAnswer {
    // NUL cannot be in a tag: parseInput refuses it in every input (storable-text).
    const key = `${read.preview ? 'preview' : 'values'}:${read.substitute}:${read.sets.join(',')}:${read.tags.join('\0')}`;
    const asked = this.askedBy.get(caller) ?? new Map<string, AskedBefore>();
    const before = asked.get(key);
    if (before?.revision === snapshot.revision) {
      this.deps.answers.hits.inc();
      return before.answer;
    }
    const answer = this.answerAnew(caller, snapshot, read);
    this.askedBy.set(caller, asked);
    if (asked.size >= QUESTIONS_PER_CALLER) asked.clear();
    asked.set(key, { revision: snapshot.revision, answer });
    return answer;
  }

  private answerAnew(known: Caller, snapshot: LibrarySnapshot, read: ValuesRead): ResolvedAnswer {
    const sets = [...new Set(read.sets)].sort((a, b) => a - b);
    for (const setId of sets) if (!snapshot.sets.has(setId)) throw NotFoundError.entity('Library set', setId);
    const reached = walkOrder(snapshot.sets, sets);
    for (const setId of reached) requireForSet(known, 'VariableRead', setId);
    const tags = requestedTags(snapshot, read.tags);
    const revealed = reached.filter((setId) => holdsForSet(known, 'VariableReadSecrets', setId));
    const question = [
      sets.join(','),
      [...tags].sort((a, b) => a - b).join(','),
      read.preview,
      read.substitute,
      revealed.join(','),
    ].join('|');
    return this.answer(snapshot, question, () =>
      resolvedAnswer(snapshot, {
        sets,
        tags,
        preview: read.preview,
        substitute: read.substitute,
        revealsSet: (setId) => revealed.includes(setId),
      }),
    );
  }

  private answer(snapshot: LibrarySnapshot, question: string, make: () => ResolvedAnswer): ResolvedAnswer {
    let kept = this.answers.get(snapshot.organizationId);
    if (
      !kept ||
      kept.revision !== snapshot.revision ||
      kept.byQuestion.size >= MAX_ANSWERS_PER_ORGANIZATION
    ) {
      kept = { revision: snapshot.revision, byQuestion: new Map() };
      this.answers.set(snapshot.organizationId, kept);
    }
    let answer = kept.byQuestion.get(question);
    if (answer) {
      this.deps.answers.hits.inc();
    } else {
      this.deps.answers.misses.inc();
      answer = make();
      kept.byQuestion.set(question, answer);
    }
    return answer;
  }
}

/** The ids of the tags asked for (spec 4.1 rule 6: group without regard to case, tag with it); an unknown one matches nothing. */
function requestedTags(snapshot: LibrarySnapshot, refs: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const ref of refs) {
    const name = tagName(ref);
    const id = name ? snapshot.tagIds.get(tagKey(name.group, name.tag)) : undefined;
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

/** `If-None-Match`: one ETag, a list of them, or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
