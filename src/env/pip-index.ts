// The pip options that name an environment's package index, given to every pip call that installs or asks
// about its packages (build, layers, `plan --sizes`, `validate --check-index`), and the part of its cache
// key and marker they make. An environment that names none gives pip no option and keeps its old key.
import fs from 'node:fs';
import { EXIT, UserError } from '../errors.ts';
import { indexLocations, localDirectory, namesIndex } from '../spec/package-index.ts';
import type { Environment, PackageIndex } from '../spec/types.ts';

/** Each location with the pip option that names it, in the spec's order. */
function indexOptions(index: PackageIndex): [string, string][] {
  const option = {
    index_url: '--index-url',
    extra_index_urls: '--extra-index-url',
    find_links: '--find-links',
  } as const;
  return indexLocations(index).map(({ key, location }) => [option[key], location]);
}

/** `--index-url U --extra-index-url U... --find-links U...`; nothing for an environment that names no index. */
export function pipIndexArgs(index: PackageIndex): string[] {
  return indexOptions(index).flat();
}

/** The same options as lines of a requirements file (`--find-links U`), which pip reads there too. */
export function requirementsFileOptions(index: PackageIndex): string[] {
  return indexOptions(index).map(([option, location]) => `${option} ${location}`);
}

/** What the cache key and the marker add for the index: nothing when none is named, so old keys stay valid. */
export function indexIdentity(index: PackageIndex): { index?: PackageIndex } {
  return namesIndex(index) ? { index } : {};
}

/**
 * Refuses a build whose local index directory is missing before pip starts: pip would only warn about
 * a missing --find-links directory and go on without it (`validate` says where the spec names it).
 */
export function checkIndexDirectories(env: Environment): void {
  for (const { key, location } of indexLocations(env.index)) {
    const dir = localDirectory(location);
    if (dir === null || fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    throw new UserError(
      `environment '${env.id}': its ${key} names the directory ${dir}, which does not exist or is not a directory. Create it or fix the spec (\`benchgrid validate SPEC\` shows where).`,
      EXIT.usage,
    );
  }
}
