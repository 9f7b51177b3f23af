import { VersionedInput } from '../../../platform/graphql/versioned-input.js';
import { pageType } from '../../../platform/graphql/page-type.js';
import { Field, InputType, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';
import { StampedType } from '../library.types.js';
import { VariableObjectType } from '../variables/variable.types.js';

@ObjectType('VariableSet', {
  description: 'A library set: variables fetched together, inheriting those of its parent.',
})
export class VariableSetType extends StampedType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'Unique in the organization without regard to case.' })
  name!: string;

  @Field(() => String, {
    description: 'How an import file names this set as a parent; unique in the organization, set once.',
  })
  slug!: string;

  @Field(() => String)
  description!: string;

  @Field(() => Int, { nullable: true })
  parentVariableSetId!: number | null;

  @Field(() => [VariableObjectType], {
    nullable: true,
    description:
      'Its variables with their values, by name, on a set read alone (which costs VariableGetCost); null in lists.',
  })
  variables?: VariableObjectType[];
}

@ObjectType('VariableSetPage')
export class VariableSetPageType extends pageType(() => VariableSetType) {}

@InputType('VariableSetInput')
export class VariableSetInput {
  @Field(() => String)
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: "How an import file names this set as a parent; left out: the name's, numbered if taken.",
  })
  slug?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Int, { nullable: true })
  parentVariableSetId?: number | null;
}

@InputType('VariableSetUpdateInput', {
  description: 'A field left out keeps its stored value; parentVariableSetId null takes the parent away.',
})
export class VariableSetUpdateInput extends VersionedInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Int, { nullable: true })
  parentVariableSetId?: number | null;
}
