import { defineRoute, type Route } from '../../platform/http/route.js';
import {
  certificatePage,
  certificateSlotParams,
  certificateView,
  generateCertificateBody,
  organizationParams,
  uploadCertificateBody,
} from '../../subgraphs/library/certificates/certificate.schemas.js';
import type { CertificateService } from '../../subgraphs/library/certificates/certificate.service.js';

const tag = 'Certificates';
const PATH = '/organizations/{id}/certificates';
const ORGANIZATION =
  'For any organization (a global permission); one that does not exist is 404. Answers carry the certificate, never its private key.';
const MANAGE = `Needs GlobalOrganizationCertificateManage (which depends on GlobalOrganizationRead). ${ORGANIZATION}`;

/** An organization's two client certificate slots (spec 4.1 "Certificates"). */
export function certificateRoutes(certificates: CertificateService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: PATH,
      operationId: 'listCertificates',
      summary: "List an organization's certificates",
      description: `Needs GlobalOrganizationRead. ${ORGANIZATION} Primary first; an empty slot is absent.`,
      tag,
      auth: 'required',
      params: organizationParams,
      response: certificatePage,
      errors: [403, 404],
      handle: ({ caller, params }) => certificates.list(caller, params.id),
    }),
    defineRoute({
      method: 'post',
      path: `${PATH}/generate`,
      operationId: 'generateCertificate',
      summary: 'Generate a self-signed certificate into a slot',
      description: `${MANAGE} A new RSA 2048 key and a self-signed certificate for client authentication, valid from now for one year, subject CN=<organization id>. A slot already filled is 409: delete it first, or rotate.`,
      tag,
      auth: 'required',
      params: organizationParams,
      body: generateCertificateBody,
      response: certificateView,
      errors: [403, 404, 409],
      handle: ({ caller, params, body }) => certificates.generate(caller, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: `${PATH}/upload`,
      operationId: 'uploadCertificate',
      summary: 'Upload a certificate and its private key into a slot',
      description: `${MANAGE} 400 names the field and says why: a certificate that is malformed, expired, not yet valid or not of an RSA key of at least 2048 bits; a private key that cannot be read, is encrypted, or does not match the certificate. A slot already filled is 409.`,
      tag,
      auth: 'required',
      params: organizationParams,
      body: uploadCertificateBody,
      response: certificateView,
      errors: [403, 404, 409],
      handle: ({ caller, params, body }) => certificates.upload(caller, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: `${PATH}/rotate`,
      operationId: 'rotateCertificates',
      summary: 'Swap the Primary and Replacement certificates',
      description: `${MANAGE} Both slots must be filled (409 otherwise); the certificates themselves are unchanged. Answers both, Primary first.`,
      tag,
      auth: 'required',
      params: organizationParams,
      response: certificatePage,
      errors: [403, 404, 409],
      handle: ({ caller, params }) => certificates.rotate(caller, params.id),
    }),
    defineRoute({
      method: 'delete',
      path: `${PATH}/{slot}`,
      operationId: 'deleteCertificate',
      summary: 'Delete the certificate of a slot',
      description: `${MANAGE} An empty slot is 404. Answers the removed certificate.`,
      tag,
      auth: 'required',
      params: certificateSlotParams,
      response: certificateView,
      errors: [403, 404],
      handle: ({ caller, params }) => certificates.remove(caller, params.id, params.slot),
    }),
  ];
}
