import { Field, Int, ObjectType } from '../../../platform/graphql/type-graphql.js';

@ObjectType('ImportResult', { description: 'What an import did (spec 4.1 "Import").' })
export class ImportResultType {
  @Field(() => Boolean, { description: 'Whether the library was emptied first.' })
  replaced!: boolean;

  @Field(() => Int) tagGroupsCreated!: number;
  @Field(() => Int) tagGroupsSkipped!: number;
  @Field(() => Int) tagsCreated!: number;
  @Field(() => Int) tagsSkipped!: number;
  @Field(() => Int) librarySetsCreated!: number;
  @Field(() => Int) librarySetsSkipped!: number;
  @Field(() => Int) variablesCreated!: number;
  @Field(() => Int) variablesSkipped!: number;
  @Field(() => Int) valuesCreated!: number;
  @Field(() => Int) tagGroupsDeleted!: number;
  @Field(() => Int) tagsDeleted!: number;
  @Field(() => Int) librarySetsDeleted!: number;
  @Field(() => Int) variablesDeleted!: number;
  @Field(() => Int) valuesDeleted!: number;

  @Field(() => [String], { description: 'One per tag group, tag, set and variable the import left alone.' })
  notes!: string[];
}
