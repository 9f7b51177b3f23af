import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { stampedColumns } from '../../../platform/db/stamped-columns.js';

/** An identity provider configured for sign-in; the client secret never leaves the service. */
export interface StoredIdentityProvider {
  provider: 'Entra' | 'Google';
  clientId: string;
  tenantId: string | null;
  clientSecret: string | null;
}

/**
 * A tenant. Its credit balance lives here: `usedCredits` grows with spend messages and is
 * reset by a subscription payment; the total is its band's included credits plus
 * `additionalCredits`.
 */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(200),
    active: p.boolean(),
    accountPatterns: p.json<string[]>(),
    adminEmails: p.json<string[]>(),
    additionalCredits: p.integer(),
    usedCredits: p.integer(),
    /** null: the default band (`Credits:IncludedCredits`). */
    pricingBand: p.string().length(50).nullable(),
    providers: p.json<StoredIdentityProvider[]>(),
    logo: p.text().nullable(),
    logoContentType: p.string().length(100).nullable(),
    customCss: p.text().nullable(),
    ...stampedColumns(),
  },
  indexes: [
    {
      name: 'organization_name_unique',
      expression:
        'create unique index "organization_name_unique" on "account"."organization" (lower("name"))',
    },
  ],
});
export type Organization = InferEntity<typeof Organization>;
