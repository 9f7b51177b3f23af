import { z } from 'zod';
import { defineRoute, type Route } from '../../platform/http/route.js';
import { listQuery, pageSchema } from '../../platform/http/query-schemas.js';
import {
  creditsView,
  organizationBody,
  organizationUpdateBody,
  organizationView,
  providerCheckBody,
  providerCheckView,
  signInView,
} from '../../subgraphs/account/organizations/organization.schemas.js';
import type { OrganizationService } from '../../subgraphs/account/organizations/organization.service.js';

const tag = 'Organizations';
const idParams = z.object({ id: z.uuid() });

/** /organizations (spec 4.2). The credit balance comes first: `me` is not an id. */
export function organizationRoutes(organizations: OrganizationService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/organizations/me/credits',
      operationId: 'getCredits',
      summary: "The caller's organization's credit balance",
      description:
        "Any session. totalCredits is the pricing band's included credits plus the additional credits.",
      tag,
      auth: 'required',
      response: creditsView,
      handle: ({ caller }) => organizations.credits(caller),
    }),
    defineRoute({
      method: 'get',
      path: '/organizations',
      operationId: 'listOrganizations',
      summary: 'List organizations',
      description: 'Needs GlobalOrganizationList.',
      tag,
      auth: 'required',
      query: listQuery,
      response: pageSchema(organizationView, 'OrganizationPage'),
      errors: [403],
      handle: ({ caller, query }) => organizations.list(caller, query),
    }),
    defineRoute({
      method: 'post',
      path: '/organizations/identityproviders/check',
      operationId: 'checkIdentityProvider',
      summary: "Check an identity provider's credentials",
      description:
        "Needs GlobalOrganizationRead and GlobalOrganizationUpdate or GlobalOrganizationCreate. Asks the provider's own well-known token endpoint, with a 15-second timeout; stores nothing. Input that cannot be checked (an Entra provider without a tenant, a tenant that is not a GUID or domain name, an Entra client id that is not a GUID) is 400 naming the field; whatever the provider answers, or fails to, is 200 with valid false and a detail.",
      tag,
      auth: 'required',
      body: providerCheckBody,
      response: providerCheckView,
      errors: [403],
      handle: ({ caller, body }) => organizations.checkProvider(caller, body),
    }),
    defineRoute({
      method: 'get',
      path: '/organizations/{id}',
      operationId: 'getOrganization',
      summary: 'Read an organization',
      description: 'Needs GlobalOrganizationRead. Client secrets are never returned.',
      tag,
      auth: 'required',
      params: idParams,
      response: organizationView,
      errors: [403, 404],
      handle: ({ caller, params }) => organizations.get(caller, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/organizations/{id}/signin',
      operationId: 'getSignInDetails',
      summary: 'Sign-in details of an active organization',
      description: 'Anonymous. A disabled or unknown organization is 404.',
      tag,
      auth: 'none',
      params: idParams,
      response: signInView,
      errors: [404],
      handle: ({ params }) => organizations.signIn(params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/organizations',
      operationId: 'createOrganization',
      summary: 'Create an organization',
      description:
        'Needs GlobalOrganizationCreate. Also creates its Administrators group, holding every permission that is not global. An Entra provider needs its tenant; a provider and client id are listed once; logo and logoContentType go together (SVG is not accepted).',
      tag,
      auth: 'required',
      body: organizationBody,
      response: organizationView,
      errors: [403, 409],
      handle: ({ caller, body }) => organizations.create(caller, body),
    }),
    defineRoute({
      method: 'put',
      path: '/organizations/{id}',
      operationId: 'updateOrganization',
      summary: 'Update an organization',
      description:
        'Needs GlobalOrganizationUpdate. A field left out keeps its stored value; a field sent replaces it (null clears pricingBand, logo with logoContentType, and customCss). providers is replaced whole, but a provider sent without clientSecret keeps its stored secret. A version other than the stored one is 409 and changes nothing.',
      tag,
      auth: 'required',
      params: idParams,
      body: organizationUpdateBody,
      response: organizationView,
      errors: [403, 404, 409],
      handle: ({ caller, params, body }) => organizations.update(caller, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/organizations/{id}',
      operationId: 'deleteOrganization',
      summary: 'Delete an organization',
      description:
        'Needs GlobalOrganizationDelete. Removes its accounts, groups and keys; answers the removed organization.',
      tag,
      auth: 'required',
      params: idParams,
      response: organizationView,
      errors: [403, 404, 409],
      handle: ({ caller, params }) => organizations.remove(caller, params.id),
    }),
  ];
}
