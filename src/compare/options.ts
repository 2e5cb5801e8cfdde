// The options that judge a comparison, as compare, bench-change and bisect take them from the command line.
import { UserError } from '../errors.ts';
import type { CompareMode, CompareSettings } from './model.ts';
import { parseThreshold, percent } from './threshold.ts';
import type { SortOrder } from './view.ts';

/** The judging and viewing options, as commander passes them. */
export interface JudgingOptions {
  threshold?: string;
  mode?: string;
  failOnSlower?: string;
  onlyChanged?: boolean;
  sort?: SortOrder;
}

/** The settings the options ask for (--mode, --threshold, --fail-on-slower), each checked. */
export function compareSettings(
  opts: Pick<JudgingOptions, 'mode' | 'threshold' | 'failOnSlower'>,
): Partial<CompareSettings> {
  const threshold = parseThreshold(opts.threshold);
  const failOnSlower = opts.failOnSlower === undefined ? null : percent('--fail-on-slower', opts.failOnSlower);
  return { mode: resolveMode(opts.mode), threshold, fail_on_slower: failOnSlower };
}

function resolveMode(value: string | undefined): CompareMode {
  const v = value ?? 'ratio';
  if (v === 'ratio' || v === 'absolute') return v;
  throw new UserError(`--mode: expected ratio or absolute (got ${JSON.stringify(v)}).`);
}
