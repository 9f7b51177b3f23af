import { pageType } from '../../../platform/graphql/page-type.js';
import {
  Field,
  InputType,
  Int,
  ObjectType,
  registerEnumType,
} from '../../../platform/graphql/type-graphql.js';
import { API_KEY_EXPIRIES, type ApiKeyExpiry } from '../domain/api-keys.js';

const ApiKeyExpiryEnum = Object.fromEntries(API_KEY_EXPIRIES.map((expiry) => [expiry, expiry]));
registerEnumType(ApiKeyExpiryEnum, { name: 'ApiKeyExpiry' });

@ObjectType('ApiKey')
export class ApiKeyType {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  hint!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String, { nullable: true })
  expiresAt?: string | null;

  @Field(() => Boolean)
  expired!: boolean;
}

@ObjectType('ApiKeyCreated', { description: 'A new key: apiKey is shown only here, once.' })
export class ApiKeyCreatedType {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  apiKey!: string;

  @Field(() => String)
  hint!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String, { nullable: true })
  expiresAt?: string | null;
}

@ObjectType('ApiKeyPage')
export class ApiKeyPageType extends pageType(() => ApiKeyType) {}

@InputType('ApiKeyInput', {
  description: 'A field left out or null takes its default: no description, OneHour.',
})
export class ApiKeyInput {
  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => ApiKeyExpiryEnum, { nullable: true })
  expiry?: ApiKeyExpiry | null;
}
