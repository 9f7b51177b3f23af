import { Migration } from '@mikro-orm/migrations';

/** Each organization's library revision, raised by every library write (the read path's snapshots follow it). */
export class Migration20261204000000_library_revision extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "library"."library_revision" (
      "organization_id" uuid not null, "revision" bigint not null,
      constraint "library_revision_pkey" primary key ("organization_id"));`);
  }
}
