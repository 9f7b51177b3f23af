import { z } from 'zod';

export const PROVIDERS = ['Entra', 'Google'] as const;

const providerInput = z.object({
  provider: z.enum(PROVIDERS),
  clientId: z.string().trim().min(1).max(200),
  tenantId: z.string().trim().max(200).nullable().optional(),
  clientSecret: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Write-only. Omit on update to keep the stored secret of the same provider and client id.'),
});

const MAX_LOGO_BASE64 = 700_000; // about 512 KB of image

/** The body of POST /organizations and PUT /organizations/{id} (CONTRACT section 3). */
export const organizationBody = z.object({
  name: z.string().trim().min(1).max(200),
  active: z.boolean().default(true),
  accountPatterns: z
    .array(z.string().min(1).max(500))
    .max(50)
    .default([])
    .describe('Regular expressions matched, without regard to case, against an address at first login.'),
  adminEmails: z.array(z.email().max(320)).max(100).default([]),
  additionalCredits: z.number().int().min(0).max(1_000_000_000).default(0),
  pricingBand: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .nullable()
    .optional()
    .describe('A band of Credits:Bands; none is the default band.'),
  providers: z.array(providerInput).max(10).default([]),
  logo: z.base64().max(MAX_LOGO_BASE64).nullable().optional(),
  logoContentType: z
    .enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'])
    .nullable()
    .optional(),
  customCss: z
    .string()
    .max(100_000)
    .nullable()
    .optional()
    .describe('Filtered against an allow-list of rules when saved.'),
  version: z
    .number()
    .int()
    .optional()
    .describe('On update: the version read; a different stored version is 409.'),
});
export type OrganizationBody = z.output<typeof organizationBody>;

const providerView = z.object({
  provider: z.enum(PROVIDERS),
  clientId: z.string(),
  tenantId: z.string().nullable(),
});

export const organizationView = z
  .object({
    id: z.uuid(),
    name: z.string(),
    active: z.boolean(),
    accountPatterns: z.array(z.string()),
    adminEmails: z.array(z.string()),
    additionalCredits: z.number().int(),
    usedCredits: z.number().int(),
    totalCredits: z.number().int(),
    pricingBand: z.string().nullable(),
    providers: z.array(providerView.extend({ hasClientSecret: z.boolean() })),
    logo: z.string().nullable(),
    logoContentType: z.string().nullable(),
    customCss: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Organization' });
export type OrganizationView = z.output<typeof organizationView>;

export const signInView = z
  .object({
    id: z.uuid(),
    name: z.string(),
    logo: z.string().nullable(),
    logoContentType: z.string().nullable(),
    customCss: z.string().nullable(),
    providers: z.array(providerView),
  })
  .meta({ id: 'SignInDetails' });
export type SignInView = z.output<typeof signInView>;

export const creditsView = z
  .object({ usedCredits: z.number().int(), totalCredits: z.number().int() })
  .meta({ id: 'CreditBalance' });

export const providerCheckBody = z.object({
  provider: z.enum(PROVIDERS),
  clientId: z.string().trim().min(1).max(200),
  tenantId: z.string().trim().max(200).nullable().optional(),
  clientSecret: z.string().min(1).max(1000),
});

export type ProviderCheckBody = z.output<typeof providerCheckBody>;

export const providerCheckView = z
  .object({ valid: z.boolean(), detail: z.string() })
  .meta({ id: 'IdentityProviderCheckResult' });
