import type { GraphQLContext } from '../../platform/graphql/subgraph.js';
import {
  Directive,
  Field,
  FieldResolver,
  ID,
  Int,
  ObjectType,
  Resolver,
  Root,
  type ClassType,
} from '../../platform/graphql/type-graphql.js';
import type { StampView } from './library-views.js';

@Directive('@key(fields: "id", resolvable: false)')
@ObjectType('User', { description: 'An account, owned by the account subgraph.' })
export class UserReference {
  @Field(() => ID)
  id!: string;
}

/** The stamps every versioned library record carries (spec 2 "Tag group"). */
@ObjectType()
export abstract class StampedType {
  @Field(() => Int, { description: 'Raised by one on each update; a PUT sends the version it read.' })
  version!: number;

  @Field(() => ID, {
    nullable: true,
    description: 'Who made it, from the token; null when nobody was signed in.',
  })
  createdById!: string | null;

  @Field(() => String)
  createdAt!: string;

  @Field(() => ID, { nullable: true })
  updatedById!: string | null;

  @Field(() => String)
  updatedAt!: string;
}

const author = (id: string | null): UserReference | null => (id === null ? null : { id });

/**
 * Who made and changed a record of this type, as references to the account subgraph's User
 * (the gateway asks the account subgraph for their names).
 */
export function authorFieldsOf(type: ClassType): ClassType {
  @Resolver(() => type)
  class AuthorFields {
    @FieldResolver(() => UserReference, { nullable: true, description: 'Who made it.' })
    createdBy(@Root() record: StampView): UserReference | null {
      return author(record.createdById);
    }

    @FieldResolver(() => UserReference, { nullable: true, description: 'Who changed it last.' })
    updatedBy(@Root() record: StampView): UserReference | null {
      return author(record.updatedById);
    }
  }
  return AuthorFields;
}

export type { GraphQLContext };
