import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Caller } from '../../platform/auth/caller.js';
import type { AuditMessage } from '../../platform/audit-log/audit-message.js';
import type { Database } from '../../platform/db/database.js';
import { DomainError, NotFoundError, UnauthorizedError } from '../../platform/errors/domain-errors.js';
import type { Page } from '../../platform/http/query-schemas.js';
import { requirePermission } from '../../platform/permissions/authorize.js';
import type { Logger } from '../../platform/logging/logger.js';
import type { QueueMessage } from '../../platform/queue/queue.js';
import type { Clock } from '../../platform/time/clock.js';
import type { AuditCondition } from './domain/audit-fields.js';
import { MAX_WRITER_NUMBER } from './domain/audit-versions.js';
import { GLOBAL_ORGANIZATION_ID, listScope, mayReadState } from './domain/audit-visibility.js';
import { AuditEntry } from './audit-entry.entity.js';
import { ParkedMessage } from './parked-message.entity.js';
import { AUDIT_SCHEMA, AuditEntryRepository } from './audit-entry.repository.js';
import {
  AUDIT_TEXT_MAX,
  type AuditEntryView,
  type AuditListQuery,
  type AuditWriteBody,
} from './audit.schemas.js';

export interface AuditServiceDependencies {
  orm: Database;
  clock: Clock;
  logger: Logger;
  /** Entry types accepted without a session token (`Audit:AuthNotRequired`). */
  authNotRequired: readonly string[];
}

const auditMessageSchema = z.object({
  organizationId: z.uuid().nullable(),
  loggedBy: z.uuid().nullable(),
  loggedAt: z.iso.datetime(),
  entryType: z.string().min(1).max(100),
  action: z.string().min(1).max(100),
  entityName: z.string().max(AUDIT_TEXT_MAX),
  entityId: z.string().max(AUDIT_TEXT_MAX),
  version: z.number().int().min(0).max(MAX_WRITER_NUMBER).nullable(),
  beforeState: z.string().nullable(),
  afterState: z.string().nullable(),
}) satisfies z.ZodType<AuditMessage>;

/**
 * The audit log (spec section 4.4): lists and filters entries within what the caller may
 * see, withholds states the caller may not read, and stores entries written over HTTP or
 * delivered from the other services' outboxes.
 */
export class AuditService {
  private readonly repository = new AuditEntryRepository();

  constructor(private readonly deps: AuditServiceDependencies) {}

  /** GET / and POST /filter: AuditList; global entries only with AuditGlobalList. */
  async list(
    caller: Caller | undefined,
    query: AuditListQuery,
    conditions: AuditCondition[] = [],
  ): Promise<Page<AuditEntryView>> {
    const scope = listScope(caller);
    const page = await this.repository.findPage(this.deps.orm.em.fork(), scope, conditions, query);
    return { total: page.total, items: page.items.map((entry) => this.view(scope.caller, entry)) };
  }

  /**
   * GET /{id}: AuditRead (which depends on AuditList). The caller's own entry of that id, or
   * else the global one when the caller may list global entries; its latest version unless
   * one is asked for. The state is withheld, not refused, when the caller may not read it.
   */
  async get(caller: Caller | undefined, id: number, version?: number): Promise<AuditEntryView> {
    const known = requirePermission(caller, 'AuditRead');
    const { organizationIds } = listScope(known);
    const entry = await this.repository.findOne(this.deps.orm.em.fork(), organizationIds, id, version);
    if (!entry)
      throw NotFoundError.entity('Audit entry', version === undefined ? id : `${id} version ${version}`);
    return this.view(known, entry);
  }

  /**
   * POST /: with a session, the entry belongs to the caller's organization and is logged by
   * the caller. Without one, only the allow-listed entry types are accepted, as global
   * entries; anything else is 401.
   */
  async write(caller: Caller | undefined, body: AuditWriteBody): Promise<AuditEntryView> {
    if (!caller && !this.deps.authNotRequired.includes(body.entryType)) {
      throw new UnauthorizedError(
        `Entries of type "${body.entryType}" can only be written with a session token.`,
      );
    }
    const stored = await this.deps.orm.em.fork().transactional((em) =>
      this.repository.append(
        em,
        {
          organizationId: caller?.organizationId ?? GLOBAL_ORGANIZATION_ID,
          loggedBy: caller?.accountId ?? GLOBAL_ORGANIZATION_ID,
          loggedAt: this.deps.clock.now(),
          entryType: body.entryType,
          action: body.action,
          entityName: body.entityName,
          entityId: body.entityId,
          beforeState: body.beforeState,
          afterState: body.afterState,
          sourceMessageId: null,
        },
        body.id === undefined ? { kind: 'next' } : { kind: 'given', id: body.id },
        body.version,
      ),
    );
    return caller ? this.view(caller, stored) : withState(stored, false);
  }

  /** DELETE /{id}: AuditDelete, in the caller's organization only; answers what it removed. */
  async remove(caller: Caller | undefined, id: number): Promise<Page<AuditEntryView>> {
    const known = requirePermission(caller, 'AuditDelete');
    const removed = await this.deps.orm.em
      .fork()
      .transactional((em) => this.repository.removeAll(em, known.organizationId, id));
    if (removed.length === 0) throw NotFoundError.entity('Audit entry', id);
    return { total: removed.length, items: removed.map((entry) => this.view(known, entry)) };
  }

  /**
   * Stores an entry delivered from another service's outbox, once: the message id is kept
   * with the entry, and a redelivered message finds it and stops. Entries of one entity
   * share an id and differ by version (spec 9.2); an entry naming no entity (an empty
   * entity id) takes an id of its own. A message that cannot be stored (malformed, or refused
   * by a rule) is parked, never dropped: see ParkedMessage. A fault (the database away) is
   * thrown, and the queue delivers the message again.
   */
  async store(message: QueueMessage): Promise<void> {
    try {
      await this.storeOnce(message.id, message.data);
    } catch (error) {
      if (!(error instanceof UnstorableMessage)) throw error;
      await this.park(message, error.message);
    }
  }

  /**
   * Tries the parked messages again, oldest first; each one stored leaves the table in the
   * transaction that stores it. Answers how many are still parked.
   */
  async retryParked(): Promise<number> {
    const em = this.deps.orm.em.fork();
    const parked = await em.find(
      ParkedMessage,
      {},
      { orderBy: { parkedAt: 'asc' }, disableIdentityMap: true },
    );
    let left = 0;
    for (const row of parked) {
      try {
        await this.storeOnce(row.messageId, JSON.parse(row.data) as unknown, (tx) =>
          tx.nativeDelete(ParkedMessage, { messageId: row.messageId }),
        );
      } catch (error) {
        if (!(error instanceof UnstorableMessage)) throw error;
        left++;
        await em.nativeUpdate(
          ParkedMessage,
          { messageId: row.messageId },
          { reason: error.message, attempts: row.attempts + 1, lastAttemptAt: this.deps.clock.now() },
        );
      }
    }
    return left;
  }

  /**
   * Stores a delivered message's entry unless it is stored already, with `alsoInTransaction` in
   * the same transaction; UnstorableMessage when it never can be as it is.
   */
  private async storeOnce(
    messageId: string,
    data: unknown,
    alsoInTransaction?: (em: EntityManager) => Promise<unknown>,
  ): Promise<void> {
    const parsed = auditMessageSchema.safeParse(data);
    if (!parsed.success) throw new UnstorableMessage(`not an audit message: ${parsed.error.message}`);
    const entry = parsed.data;
    try {
      await this.deps.orm.em.fork().transactional(async (em) => {
        if ((await em.count(AuditEntry, { sourceMessageId: messageId })) === 0) {
          await this.repository.append(
            em,
            {
              organizationId: entry.organizationId ?? GLOBAL_ORGANIZATION_ID,
              loggedBy: entry.loggedBy ?? GLOBAL_ORGANIZATION_ID,
              loggedAt: new Date(entry.loggedAt),
              entryType: entry.entryType,
              action: entry.action,
              entityName: entry.entityName,
              entityId: entry.entityId,
              beforeState: entry.beforeState,
              afterState: entry.afterState,
              sourceMessageId: messageId,
            },
            entry.entityId === '' ? { kind: 'next' } : { kind: 'entity' },
            entry.version ?? undefined,
          );
        }
        await alsoInTransaction?.(em);
      });
    } catch (error) {
      // Another replica stored the same delivery a moment ago: that is the once we wanted.
      if (error instanceof UniqueConstraintViolationException && holdsSourceConstraint(error)) return;
      if (error instanceof DomainError) throw new UnstorableMessage(error.message, { cause: error });
      throw error;
    }
  }

  /** Keeps a message that cannot be stored where an operator sees it, and says so in the log. */
  private async park(message: QueueMessage, reason: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.orm.em.fork().upsert(
      ParkedMessage,
      {
        messageId: message.id,
        data: JSON.stringify(message.data),
        reason,
        parkedAt: now,
        attempts: 1,
        lastAttemptAt: now,
      },
      { onConflictFields: ['messageId'], onConflictMergeFields: ['reason', 'lastAttemptAt'] },
    );
    this.deps.logger.error(
      { messageId: message.id, reason },
      `an audit message cannot be stored; it is parked in ${AUDIT_SCHEMA}.parked_message and tried again later`,
    );
  }

  private view(caller: Caller, entry: AuditEntry): AuditEntryView {
    return withState(entry, !mayReadState(caller, entry.organizationId));
  }
}

function withState(entry: AuditEntry, withhold: boolean): AuditEntryView {
  const hasState = (entry.beforeState ?? null) !== null || (entry.afterState ?? null) !== null;
  return {
    id: entry.id,
    version: entry.version,
    organizationId: entry.organizationId,
    loggedAt: entry.loggedAt.toISOString(),
    loggedBy: entry.loggedBy,
    entryType: entry.entryType,
    action: entry.action,
    entityName: entry.entityName,
    entityId: entry.entityId,
    beforeState: withhold ? null : (entry.beforeState ?? null),
    afterState: withhold ? null : (entry.afterState ?? null),
    stateWithheld: withhold && hasState,
  };
}

/** A delivered message that no retry stores as it is: it is parked. */
class UnstorableMessage extends Error {}

function holdsSourceConstraint(error: UniqueConstraintViolationException): boolean {
  return (error as { constraint?: string }).constraint === 'audit_entry_source_message_id_unique';
}
