import { pageType } from '../../../platform/graphql/page-type.js';
import { Directive, Field, ID, InputType, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';

@ObjectType('LinkedIdentity')
export class LinkedIdentityType {
  @Field(() => String)
  provider!: string;

  @Field(() => String)
  providerUserId!: string;

  @Field(() => String)
  linkedAt!: string;
}

@ObjectType('GroupReference')
export class GroupReferenceType {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;
}

@Directive('@key(fields: "id")')
@ObjectType('User', {
  description: "An account. Its identities, groups and photo need UserRead, unless it is the caller's own.",
})
export class UserType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  organizationId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;

  @Field(() => Boolean)
  serviceAccount!: boolean;

  @Field(() => String, { nullable: true })
  profileImage?: string | null;

  @Field(() => [LinkedIdentityType])
  identities!: LinkedIdentityType[];

  @Field(() => [GroupReferenceType])
  groups!: GroupReferenceType[];

  @Field(() => Int)
  version!: number;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;
}

@ObjectType('UserPage')
export class UserPageType extends pageType(() => UserType) {}

@InputType('UserInput')
export class UserInput {
  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;

  @Field(() => Boolean, { nullable: true })
  serviceAccount?: boolean | null;
}

@InputType('UserUpdateInput', {
  description:
    'A change of an account: a field left out keeps its stored value, one given replaces it; null clears profileImage.',
})
export class UserUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Cannot change; when given it must match.' })
  serviceAccount?: boolean | null;

  @Field(() => String, { nullable: true })
  profileImage?: string | null;

  @Field(() => Int, { nullable: true })
  version?: number | null;
}
