import { p } from '@mikro-orm/core';

/**
 * The columns every versioned record carries (spec 9.1): its version, raised by one on each
 * update, and who made and last changed it, when. Declared once here and spread into each
 * entity's properties; written only by AuditedWrites.
 */
export function stampedColumns() {
  return {
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** The account that made it; null when nobody was signed in (a login that provisioned it). */
    createdById: p.uuid().nullable(),
    updatedById: p.uuid().nullable(),
  };
}

/** A record with the stamped columns. */
export interface Stamped {
  id: string | number;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  createdById?: string | null;
  updatedById?: string | null;
}

export type StampedField = 'version' | 'createdAt' | 'updatedAt' | 'createdById' | 'updatedById';
