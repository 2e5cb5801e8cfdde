// An environment's package indexes (`index_url`, `extra_index_urls`, `find_links`): what each value may be,
// and the values resolved for pip. Pure. They name where pip takes code from, so like requirements they are
// reviewed, never fetched or listed when a spec is loaded (docs/security.md); the schema refuses a value
// that locationProblem finds wrong (src/spec/schema.ts), so every command that loads a spec refuses it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EnvironmentData } from './data.ts';
import type { PackageIndex } from './types.ts';

/** The spec keys of a package index, in the order pip's options are given. */
export const INDEX_KEYS = ['index_url', 'extra_index_urls', 'find_links'] as const;

/** The schemes pip reads as an index or a page of links. */
const SCHEMES = new Set(['https', 'http', 'file']);

/** `scheme:` at the start of a location: a URL; anything else is a directory path. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** What is wrong with one written location, and what to do; null when pip may be given it. */
export function locationProblem(text: string): { message: string; hint: string } | null {
  if (text === '') return { message: 'is empty', hint: 'Write a URL (https://...) or a directory, or remove the key.' };
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text))
    return {
      message: 'holds a control character (a line break, a tab, ...)',
      hint: 'Write the URL or directory on one line, as it is.',
    };
  if (/\s/.test(text))
    return {
      message: 'holds whitespace, so it would not stay one argument in a requirements file or a log',
      hint: 'Write a space in a URL as %20; rename a directory whose name holds one.',
    };
  if (text.startsWith('-'))
    return {
      message: "starts with '-', so pip would read it as an option",
      hint: "Name a URL or a directory; a directory whose name starts with '-' is written ./-NAME.",
    };
  if (text.startsWith('~'))
    return {
      message: "starts with '~', which is not expanded to a home directory",
      hint: 'Write the absolute path, or a path relative to the spec.',
    };
  const scheme = SCHEME.exec(text)?.[1].toLowerCase();
  if (scheme === undefined) return null;
  if (!SCHEMES.has(scheme))
    return {
      message: `names the scheme '${scheme}:', which is not an index pip reads here`,
      hint: 'Use an https://, http:// or file:// URL, or a directory (a directory whose name holds a colon is written ./NAME).',
    };
  return urlProblem(text, scheme);
}

/** Problems of a URL whose scheme is one of SCHEMES. */
function urlProblem(text: string, scheme: string): { message: string; hint: string } | null {
  const rest = text.slice(scheme.length + 1);
  if (!rest.startsWith('//'))
    return {
      message: `is not a URL of the form ${scheme}://...`,
      hint:
        scheme === 'file'
          ? 'Write file:///ABSOLUTE/PATH, or the directory path itself.'
          : `Write ${scheme}://HOST/PATH.`,
    };
  const authority = rest.slice(2).split(/[/?#]/)[0];
  if (authority.includes('@')) {
    return {
      message:
        'holds credentials (USER:PASSWORD@ before the host), which a spec is no place for: it is reviewed, shared and printed',
      hint: "Name the URL without them, and give pip the credentials on the machine that builds: pip's configuration (pip.conf, PIP_INDEX_URL), a keyring, or ~/.netrc.",
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { message: 'is not a URL pip can read', hint: `Write ${scheme}://HOST/PATH.` };
  }
  // Before the URL parser, which reads https:///simple as the host `simple`.
  if (scheme !== 'file')
    return authority === '' || url.hostname === ''
      ? { message: 'names no host', hint: `Write ${scheme}://HOST/PATH.` }
      : null;
  try {
    fileURLToPath(url);
    return null;
  } catch {
    return {
      message: 'is a file: URL of another host; a file: URL names a directory on the machine that builds',
      hint: 'Write file:///ABSOLUTE/PATH, or the directory path itself.',
    };
  }
}

/** The location with any USER:PASSWORD@ before the host shown as `***@`. */
export function withoutCredentials(text: string): string {
  return text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1***@');
}

/** Whether a (valid) location is a URL rather than a directory path. */
export function isUrl(location: string): boolean {
  return SCHEME.test(location);
}

/** The directory on this machine a resolved location names (a path, or a file: URL); null for a remote URL. */
export function localDirectory(location: string): string | null {
  if (!isUrl(location)) return location;
  return /^file:/i.test(location) ? fileURLToPath(location) : null;
}

/** A location as pip is given it: a URL as written, a directory resolved against the spec's directory. */
export function resolveLocation(written: string, specDir: string): string {
  return isUrl(written) ? written : path.resolve(specDir, written);
}

/** Whether an environment as written sets any of the index keys (a layer that does sets its own). */
export function declaresIndex(e: EnvironmentData): boolean {
  return INDEX_KEYS.some((k) => e[k] !== undefined);
}

/** The index an environment as written names, its directories resolved against the spec's directory. */
export function indexOf(e: EnvironmentData, specFile: string): PackageIndex {
  const dir = path.dirname(specFile);
  return {
    index_url: e.index_url === undefined ? null : resolveLocation(e.index_url, dir),
    extra_index_urls: (e.extra_index_urls ?? []).map((u) => resolveLocation(u, dir)),
    find_links: (e.find_links ?? []).map((u) => resolveLocation(u, dir)),
  };
}

/** Whether pip is told anything about where to look (else it asks its own configuration alone). */
export function namesIndex(index: PackageIndex): boolean {
  return index.index_url !== null || index.extra_index_urls.length > 0 || index.find_links.length > 0;
}

/** Every location of an index, with the key it came from. */
export function indexLocations(index: PackageIndex): { key: (typeof INDEX_KEYS)[number]; location: string }[] {
  return [
    ...(index.index_url === null ? [] : [{ key: 'index_url' as const, location: index.index_url }]),
    ...index.extra_index_urls.map((location) => ({ key: 'extra_index_urls' as const, location })),
    ...index.find_links.map((location) => ({ key: 'find_links' as const, location })),
  ];
}
