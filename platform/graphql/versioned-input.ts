import { Field, InputType, Int } from './type-graphql.js';

/** What every update input carries: the version read, checked as REST checks it (spec 9 rule 1). */
// Not in the schema itself: type-graphql emits only the types resolvers reach, and none takes this one.
@InputType('VersionedInput')
export abstract class VersionedInput {
  @Field(() => Int, {
    nullable: true,
    description: 'The version read; a different stored version is CONFLICT.',
  })
  version?: number | null;
}
