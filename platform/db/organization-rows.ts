import type { EntityManager } from '@mikro-orm/postgresql';
import { TENANT_FILTER } from './tenancy.js';

/**
 * Plain SQL over one organization's rows, for reads and locks that go past the ORM (whose tenant
 * filter does not reach raw SQL). It cannot be had without the organization, and every statement
 * takes the organization's id as its first parameter: the text before the first `?` must name
 * an `organization_id` column (`where organization_id = ? and ...`, `insert into t
 * (organization_id, ...) values (?, ...)`), or the statement is refused before it runs.
 */
export class OrganizationRows {
  constructor(
    private readonly em: EntityManager,
    readonly organizationId: string,
  ) {}

  /** The rows of `em`'s organization, as its tenant filter scopes it (scopeToOrganization). */
  static of(em: EntityManager): OrganizationRows {
    const params = em.getFilterParams<{ organizationId?: unknown }>(TENANT_FILTER);
    if (typeof params?.organizationId !== 'string') {
      throw new Error('This entity manager is not scoped to an organization.');
    }
    return new OrganizationRows(em, params.organizationId);
  }

  /**
   * Makes the writers of this organization that ask for the same purpose take turns until their
   * transactions end (a PostgreSQL advisory lock), for a rule no row lock can keep: two sets each
   * made the other's parent at once would each find no cycle.
   */
  async takeTurns(purpose: string): Promise<void> {
    await this.query(
      `select pg_advisory_xact_lock(hashtextextended(turn.organization_id || ':' || turn.purpose, 0))
       from (select ?::text as organization_id, ?::text as purpose) as turn`,
      [purpose],
    );
  }

  async query<Row extends object>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    if (!FIRST_PARAMETER_IS_ORGANIZATION.test(sql)) {
      throw new Error(`A statement over an organization's rows must take organization_id first: ${sql}`);
    }
    return this.em.execute<Row[]>(sql, [this.organizationId, ...params]);
  }
}

const FIRST_PARAMETER_IS_ORGANIZATION = /^[^?]*"?organization_id"?[^?]*\?/;
