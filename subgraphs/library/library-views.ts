import { z } from 'zod';

/**
 * What every versioned library record answers besides its own fields (spec 2 "Tag group"): its
 * version, who made and changed it (the ids from the token, and `{id, name}` when the account
 * service could name them) and when.
 */
export const authorView = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'Author' });
export type AuthorView = z.output<typeof authorView>;

export const stampFields = {
  version: z.number().int(),
  createdById: z.uuid().nullable(),
  createdBy: authorView.optional().describe('Left out when the account service cannot be asked.'),
  createdAt: z.iso.datetime(),
  updatedById: z.uuid().nullable(),
  updatedBy: authorView.optional().describe('Left out when the account service cannot be asked.'),
  updatedAt: z.iso.datetime(),
};

/** A record's stamps as its views carry them (without the names, which come from the account service). */
export interface StampView {
  version: number;
  createdById: string | null;
  createdAt: string;
  updatedById: string | null;
  updatedAt: string;
}

export function stampView(row: {
  version: number;
  createdById?: string | null;
  createdAt: Date;
  updatedById?: string | null;
  updatedAt: Date;
}): StampView {
  return {
    version: row.version,
    createdById: row.createdById ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedById: row.updatedById ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A version sent back on PUT (spec 9.1). */
export const versionField = z
  .number()
  .int()
  .optional()
  .describe('The version read; a different stored version is 409 and changes nothing.');

/** A name of a tag group, tag, set or variable: written as given, without spaces around it. */
export function nameField(what: string) {
  return z
    .string()
    .min(1, `a ${what} needs a name`)
    .max(200)
    .refine((name) => name.trim() === name, { message: 'has spaces or line breaks around it' })
    .refine((name) => !/[\r\n]/.test(name), { message: 'has a line break' });
}

export const descriptionField = z.string().max(2000);
