import { z } from 'zod';
import type { GraphQLContext } from '../../../platform/graphql/subgraph.js';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from '../../../platform/graphql/type-graphql.js';
import { parseInput } from '../../../platform/http/validation.js';
import { certificateSlot, generateCertificateBody, uploadCertificateBody } from './certificate.schemas.js';
import type { CertificateService } from './certificate.service.js';
import {
  CertificatePageType,
  CertificateSlotEnum,
  CertificateType,
  CertificateUploadInput,
} from './certificate.types.js';
import type { CertificateSlot } from './certificate.entity.js';

const organizationArgs = z.object({ organizationId: z.uuid() });
const organizationOf = (organizationId: string) =>
  parseInput(organizationArgs, { organizationId }, 'args').organizationId;

const MANAGE = 'GlobalOrganizationCertificateManage; an organization that does not exist is NOT_FOUND.';

/** An organization's certificates through GraphQL: one line each over CertificateService, with the same rules as REST. */
@Resolver()
export class CertificateResolver {
  constructor(private readonly service: CertificateService) {}

  @Query(() => CertificatePageType, {
    description: 'GlobalOrganizationRead; Primary first; an organization that does not exist is NOT_FOUND.',
  })
  certificates(@Arg('organizationId', () => ID) organizationId: string, @Ctx() { caller }: GraphQLContext) {
    return this.service.list(caller, organizationOf(organizationId));
  }

  @Mutation(() => CertificateType, {
    description: `${MANAGE} Self-signed, valid for one year; a filled slot is CONFLICT.`,
  })
  generateCertificate(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('slot', () => CertificateSlotEnum) slot: CertificateSlot,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.generate(
      caller,
      organizationOf(organizationId),
      parseInput(generateCertificateBody, { slot }, 'args'),
    );
  }

  @Mutation(() => CertificateType, {
    description: `${MANAGE} BAD_REQUEST says what is wrong with the certificate or key; a filled slot is CONFLICT.`,
  })
  uploadCertificate(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('input', () => CertificateUploadInput) input: CertificateUploadInput,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.upload(
      caller,
      organizationOf(organizationId),
      parseInput(uploadCertificateBody, { ...input }, 'args.input'),
      'args.input',
    );
  }

  @Mutation(() => CertificatePageType, {
    description: `${MANAGE} Swaps Primary and Replacement; both must be filled (CONFLICT otherwise).`,
  })
  rotateCertificates(
    @Arg('organizationId', () => ID) organizationId: string,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.rotate(caller, organizationOf(organizationId));
  }

  @Mutation(() => CertificateType, {
    description: `${MANAGE} An empty slot is NOT_FOUND. Answers the removed certificate.`,
  })
  deleteCertificate(
    @Arg('organizationId', () => ID) organizationId: string,
    @Arg('slot', () => CertificateSlotEnum) slot: CertificateSlot,
    @Ctx() { caller }: GraphQLContext,
  ) {
    return this.service.remove(
      caller,
      organizationOf(organizationId),
      parseInput(certificateSlot, slot, 'args.slot'),
    );
  }
}
