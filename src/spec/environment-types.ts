// The resolved spec's environments: the Python environments it declares, the package indexes their pip
// calls name, and a tool built from its source (a layer the command line adds).

/** A named Python environment. */
export interface Environment {
  id: string;
  python: string;
  requirements: string[];
  default: boolean;
  /**
   * For an environment declared with `over`, and for the environment of one release of a versioned tool:
   * the environment it layers over and the requirements it adds (built as a small venv that sees the
   * base's site-packages); null for an environment built on its own.
   */
  layer: { base: string; requirements: string[]; source?: LayerSource } | null;
  /** Where pip looks for its packages (src/spec/package-index.ts); NO_INDEX: pip's own configuration alone. */
  index: PackageIndex;
}

/**
 * The package indexes and wheel directories an environment's pip calls name (`--index-url`,
 * `--extra-index-url`, `--find-links`): URLs as written, local directories as absolute paths.
 */
export interface PackageIndex {
  index_url: string | null;
  extra_index_urls: string[];
  find_links: string[];
}

/** An environment that names no index: pip asks whatever this machine's pip configuration names. */
export const NO_INDEX: PackageIndex = { index_url: null, extra_index_urls: [], find_links: [] };

/** A source ready to build. */
export interface ResolvedSource {
  kind: 'tree' | 'git';
  /** The source in the words a user types, with absolute paths: `/abs/dir`, `git:/abs/repo@REV`. */
  text: string;
  /** The directory the project is in (tree), or the directory the repository was named by (git). */
  path: string;
  /** The top of the git work tree, when there is one. */
  top: string | null;
  /** The project's directory relative to `top`, '/'-separated ('' at the top). */
  subdir: string;
  /** The revision as given (git only). */
  rev: string | null;
  /** The commit built, or for a tree in a work tree the commit it is checked out at; null outside git. */
  commit: string | null;
  /** The commit's committer date (ISO 8601), to order builds of one release. */
  committed: string | null;
  /** A tree whose files differ from its commit (changes or untracked files). */
  dirty: boolean;
  /** sha256 the build is cached by. */
  digest: string;
  /** The files a tree's build copies (relative to `path`); null for a git revision. */
  files: string[] | null;
}

/**
 * A layer that installs a tool from its source instead of a release (`run --tool-source`, bench-change):
 * never written in a spec, only made from the command line (src/source/apply.ts).
 */
export interface LayerSource {
  /** The package the source must install (a build that installs another is refused). */
  package: string;
  source: ResolvedSource;
}
