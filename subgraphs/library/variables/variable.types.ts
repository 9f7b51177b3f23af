import { VersionedInput } from '../../../platform/graphql/versioned-input.js';
import { pageType } from '../../../platform/graphql/page-type.js';
import {
  Field,
  Float,
  InputType,
  Int,
  ObjectType,
  registerEnumType,
} from '../../../platform/graphql/type-graphql.js';
import { VARIABLE_TYPES, type VariableType } from '../domain/variable-types.js';
import { StampedType } from '../library.types.js';
import { TagType } from '../tag-groups/tag-group.types.js';

export const VariableTypeEnum = Object.fromEntries(VARIABLE_TYPES.map((type) => [type, type]));
registerEnumType(VariableTypeEnum, {
  name: 'VariableType',
  description:
    'String, Multiline, Json and Certificate store value; Number numberValue; Boolean booleanValue.',
});

@ObjectType('VariableValue', {
  description:
    'One value of a variable. A sensitive one is shown itself only with VariableReadSecrets for its set.',
})
export class VariableValueType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, {
    nullable: true,
    description: 'Empty for a sensitive value withheld from the caller.',
  })
  value!: string | null;

  @Field(() => Float, { nullable: true })
  numberValue!: number | null;

  @Field(() => Boolean, { nullable: true })
  booleanValue!: boolean | null;

  @Field(() => Boolean)
  sensitive!: boolean;

  @Field(() => String, { nullable: true, description: 'Sensitive values only.' })
  hint!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Sensitive values only: salted SHA-256, 64 hex digits.',
  })
  hash!: string | null;

  @Field(() => [TagType])
  tags!: TagType[];
}

@ObjectType('Variable', { description: 'A named configuration variable of a library set.' })
export class VariableObjectType extends StampedType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'Unique in its set without regard to case.' })
  name!: string;

  @Field(() => Int)
  variableSetId!: number;

  @Field(() => VariableTypeEnum)
  type!: VariableType;

  @Field(() => Boolean)
  sensitive!: boolean;

  @Field(() => [VariableValueType], { description: 'Ordered by value id.' })
  values!: VariableValueType[];
}

@ObjectType('VariablePage')
export class VariablePageType extends pageType(() => VariableObjectType) {}

@InputType('VariableValueInput')
export class VariableValueInput {
  @Field(() => Int, {
    nullable: true,
    description: 'On update, a stored value of this variable to keep and change.',
  })
  id?: number | null;

  @Field(() => String, { nullable: true })
  value?: string | null;

  @Field(() => Float, { nullable: true })
  numberValue?: number | null;

  @Field(() => Boolean, { nullable: true })
  booleanValue?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'True makes the whole variable sensitive.' })
  sensitive?: boolean | null;

  @Field(() => [String], {
    nullable: true,
    description:
      'Tags as Group/Tag (group without regard to case, tag with it); one that names nothing is skipped.',
  })
  tags?: string[] | null;

  @Field(() => [Int], { nullable: true, description: 'Tags by id, beside or instead of tags.' })
  tagIds?: number[] | null;
}

@InputType('VariableInput')
export class VariableInput {
  @Field(() => String)
  name!: string;

  @Field(() => Int)
  variableSetId!: number;

  @Field(() => VariableTypeEnum, { nullable: true })
  type?: VariableType | null;

  @Field(() => Boolean, { nullable: true })
  sensitive?: boolean | null;

  @Field(() => [VariableValueInput], { nullable: true })
  values?: VariableValueInput[] | null;
}

@InputType('VariableUpdateInput', {
  description: 'A field left out or null keeps its stored value; values, when given, is the whole list.',
})
export class VariableUpdateInput extends VersionedInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => Int, { nullable: true })
  variableSetId?: number | null;

  @Field(() => VariableTypeEnum, { nullable: true })
  type?: VariableType | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Only from false to true: true to false is CONFLICT.',
  })
  sensitive?: boolean | null;

  @Field(() => [VariableValueInput], { nullable: true })
  values?: VariableValueInput[] | null;
}
