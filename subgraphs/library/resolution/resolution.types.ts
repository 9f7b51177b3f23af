import { ArgsType, Field, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';
import { TagType } from '../tag-groups/tag-group.types.js';

@ObjectType('ResolvedValue', { description: "A variable's winning value for the sets and tags asked for." })
export class ResolvedValueType {
  @Field(() => String, { description: 'The variable it is the value of.' })
  name!: string;

  @Field(() => Int, { description: 'The winning value.' })
  id!: number;

  @Field(() => String, {
    description: 'Its text (a Number or Boolean written out); empty when a secret the caller may not read.',
  })
  value!: string;

  @Field(() => Boolean, { description: 'Stored sensitive, or embedding a secret through a reference.' })
  sensitive!: boolean;

  @Field(() => String, { nullable: true })
  hint!: string | null;

  @Field(() => String, { nullable: true })
  hash!: string | null;

  @Field(() => [TagType])
  tags!: TagType[];
}

@ObjectType('ResolvedValues')
export class ResolvedValuesType {
  @Field(() => Int, { description: 'How many items.' })
  total!: number;

  @Field(() => [ResolvedValueType], { description: 'One per variable, by name.' })
  items!: ResolvedValueType[];
}

@ArgsType()
export class ResolveArgs {
  @Field(() => [Int], { description: 'Library set ids; their ancestors are followed to the root.' })
  sets!: number[];

  @Field(() => [String], {
    defaultValue: [],
    description: 'Group/Tag (group without regard to case, tag with it); an unknown tag matches nothing.',
  })
  tags!: string[];

  @Field(() => Boolean, {
    defaultValue: true,
    description: 'false: the winners as stored, no @[Name] replaced.',
  })
  substitute!: boolean;
}
