// The six contracts of group A, on which every intervention tool is measured, in the order the specs list them.
export const SIX_CONTRACTS = [
  'single_module_output',
  'matched_retained',
  'replacement_edit',
  'repeated_steering',
  'same_site_gradient',
  'ordered_dataset_features',
];

/** The same verdict on each of the six contracts, keyed by contract (what a tool exact everywhere shows). */
export const onAllSix = <T>(verdict: T): Record<string, T> =>
  Object.fromEntries(SIX_CONTRACTS.map((c) => [c, verdict]));
