import { VersionedInput } from '../../../platform/graphql/versioned-input.js';
import { pageType } from '../../../platform/graphql/page-type.js';
import { Field, ID, InputType, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';

const SET_RESTRICTION = "Library sets the group's Variable* permissions are restricted to; empty: all sets.";

@ObjectType('GroupMember')
export class GroupMemberType {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  email!: string;
}

@ObjectType('Group')
export class GroupType {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [String])
  permissions!: string[];

  @Field(() => [Int], { description: SET_RESTRICTION })
  variableSetIds!: number[];

  @Field(() => [GroupMemberType])
  members!: GroupMemberType[];

  @Field(() => Int)
  version!: number;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String)
  updatedAt!: string;
}

@ObjectType('Permission')
export class PermissionType {
  @Field(() => String)
  name!: string;

  @Field(() => Int)
  value!: number;

  @Field(() => Boolean)
  globalPermission!: boolean;

  @Field(() => [String])
  dependsOn!: string[];
}

@ObjectType('GroupPage')
export class GroupPageType extends pageType(() => GroupType) {}

@InputType('GroupInput', {
  description:
    'A new group. A field left out or null takes its default: no description, no permissions, all sets.',
})
export class GroupInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [String], { nullable: true })
  permissions?: string[] | null;

  @Field(() => [Int], { nullable: true, description: SET_RESTRICTION })
  variableSetIds?: number[] | null;
}

@InputType('GroupUpdateInput', {
  description: 'A change of a group: a field left out or null keeps its stored value, one given replaces it.',
})
export class GroupUpdateInput extends VersionedInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: 'The whole list; permissions the caller cannot grant stay on the group.',
  })
  permissions?: string[] | null;

  @Field(() => [Int], { nullable: true, description: SET_RESTRICTION })
  variableSetIds?: number[] | null;
}
