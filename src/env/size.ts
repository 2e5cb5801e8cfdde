// What building an environment will download, before it is built, when `plan --sizes` asks: pip resolves the
// requirements (`pip install --dry-run --report`, wheels only, and a spec's requirements name no source, so
// no package's code runs) and the size of each file it would fetch is read from the file system (a local
// index or wheel directory) or from the server (an HTTP HEAD). Answers are cached per interpreter and
// requirement set: `plan --sizes` asks pip once (tens of seconds for a PyTorch stack), later plans read the
// cache. A plain `plan` starts nothing: it shows a size only from that cache.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { Environment, PackageIndex } from '../spec/types.ts';
import { UserError } from '../errors.ts';
import { cacheDir } from './build.ts';
import { checkForeignInterpreter } from './interpreter.ts';
import { indexIdentity, pipIndexArgs } from './pip-index.ts';

/** What an environment's build downloads. */
export interface DownloadSize {
  /** Bytes of the files whose size is known. */
  bytes: number;
  /** Files pip would fetch (or take from a local index). */
  files: number;
  /** Files whose size could not be learnt (a server without Content-Length). */
  unknown: number;
  /** null when it is known; else why not (pip could not resolve, no network, an old pip). */
  error: string | null;
}

const PIP_TIMEOUT_MS = 180_000;
const HEAD_TIMEOUT_MS = 10_000;

/** The size of one URL pip would fetch; null when it cannot be learnt. */
async function sizeOf(url: string): Promise<number | null> {
  try {
    if (url.startsWith('file:')) return fs.statSync(fileURLToPath(url)).size;
    if (!/^https?:/.test(url)) return null;
    const r = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(HEAD_TIMEOUT_MS) });
    const n = Number(r.headers.get('content-length'));
    return r.ok && Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** Resolves `requirements` with `python`'s pip, from the environment's index, without installing, and sizes what it would fetch. */
async function resolveSize(python: string, requirements: string[], index: PackageIndex): Promise<DownloadSize> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-size-'));
  try {
    const reqs = path.join(dir, 'requirements.txt');
    const report = path.join(dir, 'report.json');
    fs.writeFileSync(reqs, requirements.join('\n') + '\n');
    const r = await execa(
      python,
      [
        '-m',
        'pip',
        'install',
        '--dry-run',
        '--ignore-installed',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '--no-input',
        '--quiet',
        '--report',
        report,
        ...pipIndexArgs(index),
        '-r',
        reqs,
      ],
      { reject: false, timeout: PIP_TIMEOUT_MS, stdin: 'ignore' },
    );
    if (!fs.existsSync(report)) {
      const why =
        `${r.stderr ?? ''}`
          .split('\n')
          .filter((l) => /error/i.test(l))
          .pop()
          ?.replace(/^ERROR:\s*/, '') ?? (r.timedOut ? 'pip timed out' : `pip exited with ${r.exitCode}`);
      return { bytes: 0, files: 0, unknown: 0, error: why.slice(0, 300) };
    }
    const installs = (JSON.parse(fs.readFileSync(report, 'utf8')).install ?? []) as {
      download_info?: { url?: string };
    }[];
    const sizes = await Promise.all(
      installs.map((i) => (i.download_info?.url ? sizeOf(i.download_info.url) : Promise.resolve(null))),
    );
    return {
      bytes: sizes.reduce<number>((a, b) => a + (b ?? 0), 0),
      files: sizes.length,
      unknown: sizes.filter((s) => s === null).length,
      error: null,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The download of a (full) environment's build: its requirements resolved from nothing. Cached per
 * interpreter and requirement set; an error is not cached. A layer (one release over its base) is not
 * asked: what it adds depends on the built base, and is one package and what the base lacks.
 */
export async function downloadSize(
  env: Environment,
  specDir: string,
  log: (line: string) => void = () => {},
): Promise<DownloadSize> {
  const requirements = env.requirements;
  if (requirements.length === 0) return { bytes: 0, files: 0, unknown: 0, error: null };
  const cached = cachedDownloadSize(env);
  if (cached) return cached;
  try {
    checkForeignInterpreter(env.python, specDir);
  } catch (error) {
    if (error instanceof UserError) return { bytes: 0, files: 0, unknown: 0, error: `not asked: ${error.message}` };
    throw error;
  }
  const file = sizeFile(env);
  log(
    `asking pip what building environment '${env.id}' downloads (${requirements.length} requirement${requirements.length === 1 ? '' : 's'}; once, then cached)`,
  );
  const size = await resolveSize(env.python, requirements, env.index);
  if (size.error === null) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(size) + '\n');
  }
  return size;
}

function sizeFile(env: Environment): string {
  // As the environment's cache key: another index may size other wheels; none named keeps the old file.
  const key = crypto
    .createHash('sha256')
    .update(
      JSON.stringify({ python: env.python, requirements: [...env.requirements].sort(), ...indexIdentity(env.index) }),
    )
    .digest('hex')
    .slice(0, 16);
  return path.join(cacheDir(), 'sizes', `${key}.json`);
}

/** The download size an earlier `plan` learnt for this environment, without asking pip; null if none did. */
export function cachedDownloadSize(env: Environment): DownloadSize | null {
  if (env.requirements.length === 0) return { bytes: 0, files: 0, unknown: 0, error: null };
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(sizeFile(env), 'utf8'));
  } catch {
    return null;
  }
  // A cache file is read back from disk: one that is not a size as written here is asked again.
  const d = data as Partial<DownloadSize> | null;
  const count = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return d && count(d.bytes) && count(d.files) && count(d.unknown) && d.error === null
    ? { bytes: d.bytes!, files: d.files!, unknown: d.unknown!, error: null }
    : null;
}

/** `2.4 GiB in 63 files`, with what is unknown said. */
export function describeSize(s: DownloadSize): string {
  if (s.error) return `download size unknown (${s.error})`;
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  const [div, unit] = units.find(([d]) => s.bytes >= d) ?? [1, 'bytes'];
  const amount = div === 1 ? `${s.bytes} bytes` : `${(s.bytes / div).toFixed(1)} ${unit}`;
  return `downloads ${s.unknown === s.files && s.files > 0 ? 'an unknown amount' : amount} in ${s.files} file${s.files === 1 ? '' : 's'}${s.unknown && s.unknown < s.files ? ` (${s.unknown} of unknown size)` : ''}`;
}
