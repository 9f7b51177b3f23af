import { listQuery, MAX_TAKE, type ListQuery } from '../http/query-schemas.js';
import { parseInput } from '../http/validation.js';
import { ArgsType, Field, Int, ObjectType, type ClassType } from './type-graphql.js';

/** A page of items: `total` counts every match before paging (spec 4: list responses). */
export function pageType<T extends object>(itemType: () => ClassType<T>) {
  @ObjectType()
  abstract class Page {
    @Field(() => Int, { description: 'Every match, counted before paging.' })
    total!: number;

    @Field(() => [itemType()])
    items!: T[];
  }
  return Page;
}

/** Paging of every list but the audit lists (CONTRACT section 6): everything unless take is given. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    nullable: true,
    description: `How many to return, at most ${MAX_TAKE}; all when left out.`,
  })
  take?: number | null;

  @Field(() => Int, { nullable: true })
  skip?: number | null;
}

/** The paging arguments, validated as the REST facade validates `take` and `skip`. */
export function pageQuery(args: PageArgs): ListQuery {
  return parseInput(listQuery, { take: args.take ?? undefined, skip: args.skip ?? undefined }, 'args');
}
