import { VersionedInput } from '../../../platform/graphql/versioned-input.js';
import { pageType } from '../../../platform/graphql/page-type.js';
import { Field, InputType, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';
import { StampedType } from '../library.types.js';

@ObjectType('Tag', { description: 'One value of a dimension, written Group/Tag.' })
export class TagType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'Matched with regard to case within its group.' })
  name!: string;

  @Field(() => Int)
  tagGroupId!: number;
}

@ObjectType('TagGroup', { description: 'A dimension configuration varies along (Environment, Region).' })
export class TagGroupType extends StampedType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'Unique in the organization without regard to case.' })
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => [TagType], { description: 'Its tags, by name.' })
  tags!: TagType[];
}

@ObjectType('TagGroupPage')
export class TagGroupPageType extends pageType(() => TagGroupType) {}

@ObjectType('TagPage')
export class TagPageType extends pageType(() => TagType) {}

@InputType('TagGroupInput')
export class TagGroupInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType('TagGroupUpdateInput', { description: 'A field left out or null keeps its stored value.' })
export class TagGroupUpdateInput extends VersionedInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType('TagInput')
export class TagInput {
  @Field(() => String)
  name!: string;

  @Field(() => Int)
  tagGroupId!: number;
}

@InputType('TagUpdateInput', {
  description: 'A field left out or null keeps its stored value. Tags carry no version.',
})
export class TagUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => Int, { nullable: true })
  tagGroupId?: number | null;
}
