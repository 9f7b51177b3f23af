import { VersionedInput } from '../../../platform/graphql/versioned-input.js';
import { pageType } from '../../../platform/graphql/page-type.js';
import { Directive, Field, ID, InputType, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';

@ObjectType('IdentityProvider')
export class IdentityProviderType {
  @Field(() => String)
  provider!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => String, { nullable: true })
  tenantId?: string | null;

  @Field(() => Boolean)
  hasClientSecret!: boolean;
}

@Directive('@key(fields: "id")')
@ObjectType('Organization', {
  description:
    'An organization. Fields other than id, name, active and branding need GlobalOrganizationRead.',
})
export class OrganizationType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  active!: boolean;

  @Field(() => String, { nullable: true })
  logo?: string | null;

  @Field(() => String, { nullable: true })
  logoContentType?: string | null;

  @Field(() => String, { nullable: true })
  customCss?: string | null;

  @Field(() => [String])
  accountPatterns!: string[];

  @Field(() => [String])
  adminEmails!: string[];

  @Field(() => Int)
  additionalCredits!: number;

  @Field(() => Int)
  usedCredits!: number;

  @Field(() => Int)
  totalCredits!: number;

  @Field(() => String, { nullable: true })
  pricingBand?: string | null;

  @Field(() => [IdentityProviderType], { description: 'Client secrets are never returned.' })
  providers!: IdentityProviderType[];

  @Field(() => Int)
  version!: number;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;
}

@ObjectType('SignInProvider')
export class SignInProviderType {
  @Field(() => String)
  provider!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => String, { nullable: true })
  tenantId?: string | null;
}

@ObjectType('SignInDetails')
export class SignInDetailsType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  logo?: string | null;

  @Field(() => String, { nullable: true })
  logoContentType?: string | null;

  @Field(() => String, { nullable: true })
  customCss?: string | null;

  @Field(() => [SignInProviderType])
  providers!: SignInProviderType[];
}

@ObjectType('CreditBalance')
export class CreditBalanceType {
  @Field(() => Int)
  usedCredits!: number;

  @Field(() => Int)
  totalCredits!: number;
}

@ObjectType('IdentityProviderCheckResult')
export class IdentityProviderCheckResultType {
  @Field(() => Boolean)
  valid!: boolean;

  @Field(() => String)
  detail!: string;
}

@ObjectType('OrganizationPage')
export class OrganizationPageType extends pageType(() => OrganizationType) {}

@InputType('IdentityProviderInput')
export class IdentityProviderInput {
  @Field(() => String)
  provider!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => String, { nullable: true })
  tenantId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Write-only. Omit on update to keep the stored secret.',
  })
  clientSecret?: string | null;
}

@InputType('OrganizationInput')
export class OrganizationInput {
  @Field(() => String)
  name!: string;

  @Field(() => Boolean, { nullable: true })
  active?: boolean | null;

  @Field(() => [String], { nullable: true })
  accountPatterns?: string[] | null;

  @Field(() => [String], { nullable: true })
  adminEmails?: string[] | null;

  @Field(() => Int, { nullable: true })
  additionalCredits?: number | null;

  @Field(() => String, { nullable: true })
  pricingBand?: string | null;

  @Field(() => [IdentityProviderInput], { nullable: true })
  providers?: IdentityProviderInput[] | null;

  @Field(() => String, { nullable: true })
  logo?: string | null;

  @Field(() => String, { nullable: true })
  logoContentType?: string | null;

  @Field(() => String, { nullable: true })
  customCss?: string | null;
}

@InputType('OrganizationUpdateInput', {
  description:
    'A change of an organization: a field left out keeps its stored value, one given replaces it; null clears pricingBand, logo with logoContentType, and customCss.',
})
export class OrganizationUpdateInput extends VersionedInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => Boolean, { nullable: true })
  active?: boolean | null;

  @Field(() => [String], { nullable: true })
  accountPatterns?: string[] | null;

  @Field(() => [String], { nullable: true })
  adminEmails?: string[] | null;

  @Field(() => Int, { nullable: true })
  additionalCredits?: number | null;

  @Field(() => String, { nullable: true })
  pricingBand?: string | null;

  @Field(() => [IdentityProviderInput], {
    nullable: true,
    description:
      'The whole list; a provider sent without clientSecret keeps the stored secret of the same provider and client id.',
  })
  providers?: IdentityProviderInput[] | null;

  @Field(() => String, { nullable: true })
  logo?: string | null;

  @Field(() => String, { nullable: true })
  logoContentType?: string | null;

  @Field(() => String, { nullable: true })
  customCss?: string | null;
}

@InputType('IdentityProviderCheckInput')
export class IdentityProviderCheckInput {
  @Field(() => String)
  provider!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => String, { nullable: true })
  tenantId?: string | null;

  @Field(() => String)
  clientSecret!: string;
}
