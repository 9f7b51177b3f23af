/**
 * What each sealed thing is sealed for: authenticated with it, so a box copied to another row,
 * organization, certificate or key generation does not open (decisions "Secrets at rest").
 */

/** A certificate's private key, under the master key. */
export function privateKeyContext(organizationId: string, thumbprint: string): string {
  return `certificate-private-key/${organizationId}/${thumbprint}`;
}

/** An organization's data key of one generation, under the master key or its primary certificate. */
export function dataKeyContext(organizationId: string, generation: number): string {
  return `data-key/${organizationId}/${generation}`;
}

/** A sensitive value of a variable, under its organization's data key of one generation. */
export function valueContext(organizationId: string, variableId: number, generation: number): string {
  return `variable-value/${organizationId}/${variableId}/${generation}`;
}
