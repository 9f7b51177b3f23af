import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { z } from 'zod';
import type { Caller } from '../../../platform/auth/caller.js';
import type { AuditMessage } from '../../../platform/audit-log/audit-message.js';
import type { Database } from '../../../platform/db/database.js';
import { ConflictError, NotFoundError, UnauthorizedError } from '../../../platform/errors/domain-errors.js';
import type { Page } from '../../../platform/http/query-schemas.js';
import { requirePermission } from '../../../platform/permissions/authorize.js';
import { PermanentMessageError, type QueueMessage } from '../../../platform/queue/queue.js';
import type { Clock } from '../../../platform/time/clock.js';
import type { AuditCondition } from '../domain/audit-fields.js';
import { MAX_POSTGRES_INTEGER } from '../../../platform/db/postgres-integer.js';
import { GLOBAL_ORGANIZATION_ID, listScope, mayReadState } from '../domain/audit-visibility.js';
import { AuditEntry } from '../entities/audit-entry.entity.js';
import { AuditEntryRepository } from './audit-entry.repository.js';
import {
  AUDIT_TEXT_MAX,
  type AuditEntryView,
  type AuditListQuery,
  type AuditWriteBody,
} from './audit.schemas.js';

export interface AuditServiceDependencies {
  orm: Database;
  clock: Clock;
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
  version: z.number().int().min(0).max(MAX_POSTGRES_INTEGER).nullable(),
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
   * entity id) takes an id of its own. A message that can never be stored (malformed, or
   * past the highest id or version) is refused for good rather than redelivered forever.
   */
  async store(message: QueueMessage): Promise<void> {
    const parsed = auditMessageSchema.safeParse(message.data);
    if (!parsed.success) throw new PermanentMessageError(`not an audit message: ${parsed.error.message}`);
    const entry = parsed.data;
    try {
      await this.deps.orm.em.fork().transactional(async (em) => {
        if ((await em.count(AuditEntry, { sourceMessageId: message.id })) > 0) return;
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
            sourceMessageId: message.id,
          },
          entry.entityId === '' ? { kind: 'next' } : { kind: 'entity' },
          entry.version ?? undefined,
        );
      });
    } catch (error) {
      // Another replica stored the same delivery a moment ago: that is the once we wanted.
      if (error instanceof UniqueConstraintViolationException && holdsSourceConstraint(error)) return;
      if (error instanceof ConflictError) throw new PermanentMessageError(error.message, { cause: error });
      throw error;
    }
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

function holdsSourceConstraint(error: UniqueConstraintViolationException): boolean {
  return (error as { constraint?: string }).constraint === 'audit_entry_source_message_id_unique';
}
