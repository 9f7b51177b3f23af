/**
 * An organization's credit allowance (CONTRACT section 3): the included credits of its
 * pricing band plus its additional credits. The default band (no band) includes
 * `Credits:IncludedCredits`; named bands come from `Credits:Bands`.
 */
export function totalCredits(
  organization: { pricingBand: string | null | undefined; additionalCredits: number },
  credits: { includedCredits: number; bands: Readonly<Record<string, number>> },
): number {
  // Band names come from settings keys, which match without regard to case.
  const band = organization.pricingBand ? credits.bands[organization.pricingBand.toLowerCase()] : undefined;
  return (band ?? credits.includedCredits) + organization.additionalCredits;
}
