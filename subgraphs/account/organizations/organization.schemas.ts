import { z } from 'zod';
import { accountPatternProblem } from '../domain/account-patterns.js';
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_CLIENT_SECRET_LENGTH,
  MAX_TENANT_ID_LENGTH,
  providerInputIssues,
} from './identity-provider-check.js';

export const PROVIDERS = ['Entra', 'Google'] as const;

/** Adds the provider rules of identity-provider-check.ts to a schema's own, each on its field. */
function providerRules(value: Parameters<typeof providerInputIssues>[0], context: z.RefinementCtx): void {
  for (const issue of providerInputIssues(value)) {
    context.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  }
}

/**
 * A provider's settings, by kind: the shape is in the schema (and so in the OpenAPI document), and
 * the finer rules of identity-provider-check.ts, which the check itself applies to any input, are
 * added on each field. Ids are not trimmed: one with spaces or a line break around it was copied
 * wrongly, and the rules say so.
 */
function providerSettings<S extends z.ZodType>(clientSecret: S) {
  return z
    .discriminatedUnion('provider', [
      z.object({
        provider: z.literal('Entra'),
        clientId: z.string().max(MAX_CLIENT_ID_LENGTH).describe('The Application (client) ID: a GUID.'),
        tenantId: z
          .string()
          .max(MAX_TENANT_ID_LENGTH)
          .describe('The Directory (tenant) ID (a GUID) or a verified domain of the tenant; not `common`.'),
        clientSecret,
      }),
      z.object({
        provider: z.literal('Google'),
        clientId: z.string().max(MAX_CLIENT_ID_LENGTH).describe('The OAuth client ID.'),
        tenantId: z.string().max(MAX_TENANT_ID_LENGTH).nullable().optional().describe('Not used by Google.'),
        clientSecret,
      }),
    ])
    .superRefine(providerRules);
}

const clientSecret = z.string().min(1).max(MAX_CLIENT_SECRET_LENGTH);

const providerInput = providerSettings(
  clientSecret
    .optional()
    .describe('Write-only. Omit on update to keep the stored secret of the same provider and client id.'),
);

/** At most one provider of a kind: one entry per provider and client id. */
const providers = z
  .array(providerInput)
  .max(10)
  .describe('At most one entry per provider and client id.')
  .superRefine((list, context) => {
    const seen = new Set<string>();
    list.forEach((provider, index) => {
      const key = `${provider.provider}/${provider.clientId}`;
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: [index],
          message: `${provider.provider} client ${provider.clientId} is listed twice`,
        });
      }
      seen.add(key);
    });
  });

/** A pattern is compiled as logins will compile it (RE2), so one that never could is refused on save. */
function compilesAsAccountPattern(pattern: string, context: z.RefinementCtx): void {
  const problem = accountPatternProblem(pattern);
  if (problem !== null) context.addIssue({ code: 'custom', message: `does not compile (RE2): ${problem}` });
}

const MAX_LOGO_BASE64 = 700_000; // about 512 KB of image

/**
 * Image types a logo may have. SVG is not one: it can carry script and external references, and
 * the sign-in page would have to sanitise it as hard as it filters CSS.
 */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** The fields of an organization's body; which are required and defaulted differs between POST and PUT. */
const fields = {
  name: z.string().trim().min(1).max(200),
  active: z.boolean(),
  accountPatterns: z
    .array(z.string().min(1).max(500).superRefine(compilesAsAccountPattern))
    .max(50)
    .describe(
      'Regular expressions (RE2 syntax: no backreferences or lookaround) matched, without regard to case, against an address at first login. One that does not compile is 400.',
    ),
  adminEmails: z.array(z.email().max(320)).max(100),
  additionalCredits: z.number().int().min(0).max(1_000_000_000),
  pricingBand: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .nullable()
    .describe('A band of Credits:Bands; null is the default band.'),
  providers,
  logo: z
    .base64()
    .min(1)
    .max(MAX_LOGO_BASE64)
    .nullable()
    .describe('Base64. Sent with logoContentType: both given, both null (cleared), or neither.'),
  logoContentType: z
    .enum(LOGO_CONTENT_TYPES)
    .nullable()
    .describe('Sent with logo: both given, both null (cleared), or neither. SVG is not accepted.'),
  customCss: z
    .string()
    .max(100_000)
    .nullable()
    .describe('Filtered against an allow-list of rules when saved.'),
};

/** A logo and its content type travel together: both given, both null (cleared), or neither sent. */
function logoWithItsType(
  body: { logo?: string | null; logoContentType?: string | null },
  context: z.RefinementCtx,
): void {
  const state = (value: string | null | undefined) =>
    value === undefined ? 'absent' : value === null ? 'cleared' : 'given';
  if (state(body.logo) === state(body.logoContentType)) return;
  context.addIssue({
    code: 'custom',
    path: [state(body.logo) === 'absent' ? 'logo' : 'logoContentType'],
    message: 'logo and logoContentType are sent together: both given, both null, or neither',
  });
}

/** The body of POST /organizations (CONTRACT section 3). */
export const organizationBody = z
  .object({
    ...fields,
    active: fields.active.default(true),
    accountPatterns: fields.accountPatterns.default([]),
    adminEmails: fields.adminEmails.default([]),
    additionalCredits: fields.additionalCredits.default(0),
    pricingBand: fields.pricingBand.optional(),
    providers: fields.providers.default([]),
    logo: fields.logo.optional(),
    logoContentType: fields.logoContentType.optional(),
    customCss: fields.customCss.optional(),
  })
  .superRefine(logoWithItsType);
export type OrganizationBody = z.output<typeof organizationBody>;

/**
 * The body of PUT /organizations/{id}: a field left out keeps its stored value, a field sent
 * replaces it (null clears pricingBand, logo with logoContentType, and customCss; an empty list
 * clears a list). `providers` is replaced whole, but a provider sent without clientSecret keeps
 * the stored secret of the same provider and client id.
 */
export const organizationUpdateBody = z
  .object({
    name: fields.name.optional(),
    active: fields.active.optional(),
    accountPatterns: fields.accountPatterns.optional(),
    adminEmails: fields.adminEmails.optional(),
    additionalCredits: fields.additionalCredits.optional(),
    pricingBand: fields.pricingBand.optional(),
    providers: fields.providers.optional(),
    logo: fields.logo.optional(),
    logoContentType: fields.logoContentType.optional(),
    customCss: fields.customCss.optional(),
    version: z
      .number()
      .int()
      .optional()
      .describe('The version read; a different stored version is 409 and changes nothing.'),
  })
  .superRefine(logoWithItsType);
export type OrganizationUpdateBody = z.output<typeof organizationUpdateBody>;

const providerView = z.object({
  provider: z.enum(PROVIDERS),
  clientId: z.string(),
  tenantId: z.string().nullable(),
});

const organizationRecord = z.object({
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
});
export type OrganizationView = z.output<typeof organizationRecord>;

/** An organization as answered: beyond id, name, active and branding only with GlobalOrganizationRead. */
export const organizationView = organizationRecord
  .partial({
    accountPatterns: true,
    adminEmails: true,
    additionalCredits: true,
    usedCredits: true,
    totalCredits: true,
    pricingBand: true,
    providers: true,
    version: true,
    createdAt: true,
    updatedAt: true,
  })
  .meta({
    id: 'Organization',
    description:
      'Fields other than id, name, active and branding are left out without GlobalOrganizationRead.',
  });

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

/** The provider check's body: what is stored for a provider, with the secret required. */
export const providerCheckBody = providerSettings(clientSecret);

export type ProviderCheckBody = z.output<typeof providerCheckBody>;

export const providerCheckView = z
  .object({ valid: z.boolean(), detail: z.string() })
  .meta({ id: 'IdentityProviderCheckResult' });
