import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';
import { tenantFilter } from '../../../platform/db/tenancy.js';
import { Organization } from '../organizations/organization.entity.js';

/** A person or a service account of one organization. */
export const User = defineEntity({
  name: 'User',
  tableName: 'user_account',
  properties: {
    id: p.uuid().primary(),
    organizationId: p.manyToOne(Organization).mapToPk().fieldName('organization_id').deleteRule('cascade'),
    name: p.string().length(200),
    /** Stored as given; matched and unique within the organization without regard to case. */
    email: p.string().length(320),
    serviceAccount: p.boolean(),
    profileImage: p.text().nullable(),
    ...stampedColumns(),
  },
  indexes: [
    {
      name: 'user_account_organization_email_unique',
      expression:
        'create unique index "user_account_organization_email_unique" on "account"."user_account" ("organization_id", lower("email"))',
    },
  ],
  filters: { tenant: tenantFilter },
});
export type User = InferEntity<typeof User>;
