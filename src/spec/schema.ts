// Stage 4 of spec loading: ajv with all errors, each turned into a positioned, human diagnostic.
import fs from 'node:fs';
import path from 'node:path';
import * as ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { diag, didYouMean, ptr, type Diagnostic, type Pos } from './diagnostics.ts';
import type { SpecData } from './data.ts';
import { SCHEMA_DIR } from '../repository.ts';
import { positionOf, type PosMap } from './document.ts';
import { foldMisplacedKeys } from './misplaced.ts';
import { locationProblem, withoutCredentials } from './package-index.ts';

// ajv ships CommonJS; under ESM its class is the default export, or that export's `default`.
const Ajv2020 = ajvClass(ajv2020);

function ajvClass(m: unknown): typeof ajv2020.Ajv2020 {
  let cur = m;
  for (let i = 0; i < 3 && typeof cur !== 'function' && cur !== null && typeof cur === 'object'; i++)
    cur = (cur as { default?: unknown }).default;
  if (typeof cur !== 'function') throw new Error('ajv/dist/2020.js exports no class');
  return cur as typeof ajv2020.Ajv2020;
}

/** An ajv with benchgrid's formats: `package-location` is what locationProblem accepts (it also words the error). */
function newAjv(options: { verbose?: boolean }): InstanceType<typeof ajv2020.Ajv2020> {
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  ajv.addFormat('package-location', { type: 'string', validate: (s: string) => locationProblem(s) === null });
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

/** Compiles (once) and returns the validator for a schema file in schemas/. */
export function validatorFor(name: string): ValidateFunction {
  const v = compiled.get(name);
  if (v === undefined) {
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8'));
    const ajv = newAjv({ verbose: true });
    const fresh = ajv.compile(schema);
    compiled.set(name, fresh);
    return fresh;
  }
  return v;
}

const defs = new Map<string, ValidateFunction>();

/** Compiles (once) the validator of one `$defs` entry of a schema file, e.g. a journal record. */
export function validatorForDef(name: string, def: string): ValidateFunction {
  const key = `${name}#${def}`;
  let v = defs.get(key);
  if (v === undefined) {
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8'));
    const ajv = newAjv({});
    ajv.addSchema(schema);
    v = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
    if (v === undefined) throw new Error(`schemas/${name} has no $defs/${def}`);
    defs.set(key, v);
  }
  return v;
}

/** Validates the merged spec data against schemas/spec.schema.json. */
export function checkSchema(data: unknown, positions: PosMap, file: string): Diagnostic[] {
  const validate = validatorFor('spec.schema.json');
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  return foldMisplacedKeys(describeErrors(errors, data, positions, file), errors, data, positions);
}

/** Whether merged data is a spec the schema accepts: the one place raw data becomes `SpecData`. */
export function isSpecData(data: unknown): data is SpecData {
  return validatorFor('spec.schema.json')(data) === true;
}

/** Turns ajv errors into diagnostics; exported for the results and protocol validators too. */
export function describeErrors(errors: ErrorObject[], data: unknown, positions: PosMap, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const oneOfPaths = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  for (const e of errors) {
    // Errors inside a oneOf's branches are noise; the oneOf itself gets one sentence.
    if (e.keyword !== 'oneOf' && oneOfPaths.has(e.instancePath) && e.schemaPath.includes('/oneOf/')) continue;
    if (e.keyword === 'not' || (e.keyword === 'anyOf' && e.schemaPath.includes('/oneOf/'))) continue;
    const d = describe(e, data, positions, file);
    const key = `${d.line}:${d.col}:${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

function describe(e: ErrorObject, data: unknown, positions: PosMap, file: string): Diagnostic {
  const pointer = e.instancePath;
  const value = valueAt(data, pointer);
  const got = `got ${show(value)}`;
  const at = (p: string, key = false) => positionOf(positions, p, file, key);
  switch (e.keyword) {
    case 'additionalProperties':
      return unknownKey(e, pointer, at);
    case 'required': {
      const missing = String(e.params.missingProperty);
      return diag('error', 'missing-key', at(pointer), pointer, `missing required key '${missing}'.`);
    }
    case 'type':
      return diag(
        'error',
        'wrong-type',
        at(pointer),
        pointer,
        `must be ${e.params.type} (${got}).`,
        sweepHint(pointer),
      );
    case 'enum':
      return diag(
        'error',
        'bad-value',
        at(pointer),
        pointer,
        `must be one of ${(e.params.allowedValues as unknown[]).map(show).join(', ')} (${got}).`,
        hintFor(value, e.params.allowedValues as unknown[]),
      );
    case 'const':
      return diag('error', 'bad-value', at(pointer), pointer, `must be ${show(e.params.allowedValue)} (${got}).`);
    case 'pattern':
      return patternProblem(e, pointer, got, at);
    case 'format':
      return formatProblem(e, pointer, value, got, at);
    case 'propertyNames':
      return diag('error', 'bad-name', at(pointer), pointer, `has an invalid key name.`);
    case 'oneOf':
      if (/\/group\//.test(e.schemaPath) || /^\/groups\/[^/]+$/.test(pointer)) {
        return diag(
          'error',
          'group-shape',
          at(pointer),
          pointer,
          'a group declares either `contracts` and `tools` (their full product) or `cells` (contract -> tools), exactly one of the two.',
        );
      }
      return diag('error', 'bad-shape', at(pointer), pointer, `matches none or several of its allowed shapes.`);
    case 'maximum':
    case 'maxLength':
      return diag(
        'error',
        'over-limit',
        at(pointer),
        pointer,
        `${e.message ?? 'is too large'} (${got}).`,
        'The limits are listed in docs/security.md.',
      );
    case 'minItems':
    case 'minProperties':
      return diag('error', 'empty', at(pointer), pointer, `must not be empty.`, sweepHint(pointer));
    default:
      return diag('error', 'schema', at(pointer), pointer, `${e.message ?? 'is invalid'} (${got}).`);
  }
}

/** Where a pointer's value (or, with `key`, its key) was written. */
type At = (pointer: string, key?: boolean) => Pos;

/** A key the schema does not allow: the closest allowed key, or the list of them. */
function unknownKey(e: ErrorObject, pointer: string, at: At): Diagnostic {
  const key = String(e.params.additionalProperty);
  const allowed = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {}).filter(
    (k) => k !== '$schema',
  );
  const best = didYouMean(key, allowed);
  const hint = best ? `Did you mean '${best}'?` : allowed.length ? `Allowed keys: ${allowed.join(', ')}.` : undefined;
  return diag('error', 'unknown-key', at(pointer + ptr(key), true), pointer + ptr(key), `unknown key '${key}'.`, hint);
}

/** A pattern failed: a key that is not a name, a rule with its own words (PATTERN_MESSAGES), or the bare pattern. */
function patternProblem(e: ErrorObject, pointer: string, got: string, at: At): Diagnostic {
  const propertyName = e.propertyName;
  if (propertyName !== undefined)
    return diag(
      'error',
      'bad-name',
      at(pointer + ptr(propertyName), true),
      pointer + ptr(propertyName),
      `'${propertyName}' is not a valid name: use letters, digits, '_', '.', '-' (no '/' or spaces).`,
    );
  // ajv reports a schema path relative to the referenced definition, so match on either path.
  const special = PATTERN_MESSAGES.find(
    ([where]) => e.schemaPath.includes(where) || new RegExp(`^${where}$`).test(pointer),
  );
  if (special) return diag('error', special[1], at(pointer), pointer, `${special[2]} (${got}).`, special[3]);
  return diag('error', 'bad-value', at(pointer), pointer, `does not match ${e.params.pattern} (${got}).`);
}

/** A format failed: a package location says what is wrong with it, any other format takes ajv's words. */
function formatProblem(e: ErrorObject, pointer: string, value: unknown, got: string, at: At): Diagnostic {
  const problem = typeof value === 'string' ? locationProblem(value) : null;
  // A password the spec holds is not printed again (into a CI log): the value is shown without it.
  if (e.params.format === 'package-location' && problem)
    return diag(
      'error',
      'bad-index',
      at(pointer),
      pointer,
      `${problem.message} (got ${show(withoutCredentials(String(value)))}).`,
      problem.hint,
    );
  return diag('error', 'bad-value', at(pointer), pointer, `${e.message ?? 'has the wrong format'} (${got}).`);
}

/** Patterns that stand for a rule that deserves words: [schema path part or instance path regex, code, message, hint]. */
const PATTERN_MESSAGES: [string, string, string, string][] = [
  [
    '/slurm/partition',
    'bad-value',
    'must be a Slurm partition name (letters, digits, _ . , -)',
    'Check the partition with `sinfo`.',
  ],
  [
    '/slurm/time_limit',
    'bad-value',
    'must be a Slurm time limit such as 2:00:00 or 1-12:00:00',
    'See `man sbatch`, --time.',
  ],
  [
    '/$defs/requirement/',
    'bad-requirement',
    'is not a PEP 508 requirement',
    "Write one requirement per item, e.g. 'torch==2.4.1'; pip options (-r, -e, --index-url) are not allowed (docs/security.md).",
  ],
  [
    '/$defs/interpreter/',
    'bad-interpreter',
    'must be an interpreter name like python3 or python3.11, or an absolute path',
    'Relative paths and scripts are refused (docs/spec.md, environments).',
  ],
  [
    '/$defs/subjectIds/',
    'bad-name',
    'is not a subject: a declared id, or one an axis made from it (gpt2@seq=256, gpt2@bf16)',
    "Check the subject's id and its sweep's values (`benchgrid plan` lists every subject).",
  ],
  [
    '/$defs/printable/',
    'control-character',
    'must not contain line breaks or control characters',
    'Write it on one line.',
  ],
];

/** What to write instead of a sweep's key that is not a list of values (src/spec/sweep.ts). */
function sweepHint(pointer: string): string | undefined {
  return /^\/subjects\/[^/]+\/sweep(\/[^/]+)?$/.test(pointer)
    ? 'A sweep maps a path of the subject to a list of its values, e.g. sweep: { inputs.shape.1: [16, 64, 256] } (docs/spec.md, Sweeps).'
    : undefined;
}

function hintFor(value: unknown, allowed: unknown[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const best = didYouMean(value, allowed.map(String));
  return best ? `Did you mean '${best}'?` : undefined;
}

/** The value at a JSON pointer, or undefined. */
export function valueAt(data: unknown, pointer: string): unknown {
  if (!pointer) return data;
  let cur: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') {
    const cut = v.length > 60 ? v.slice(0, 57) + '...' : v;
    // Line breaks and control characters are shown escaped: a diagnostic stays one line.
    return /[\u0000-\u001f\u007f-\u009f]/.test(cut) ? JSON.stringify(cut) : `'${cut}'`;
  }
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${String(v)}`;
}
