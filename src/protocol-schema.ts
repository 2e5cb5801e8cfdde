// The schemas' blocks that the protocol table (src/protocol-table.ts) decides, written from it:
// the spec's `protocol:` block, the journal header's and the bundle manifest's `overrides`, and the
// request's `settings`. scripts/gen-protocol.ts writes them into schemas/; the test of the table
// generates them in memory and fails when a file differs. Only each block's text is replaced, in the
// layout of its file, so the rest of a schema stays as it was written.
import type { Bounds, ProtocolRow, ProtocolTable } from './protocol-table.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Block = Record<string, Json>;

/** A block of a schema file: where it is, how the file lays it out, and what the table makes of it. */
export interface SchemaBlock {
  file: string;
  pointer: string;
  layout: 'compact' | 'expanded';
  make: (table: ProtocolTable) => Block;
}

function bounds(b: Bounds): Block {
  const out: Block = {};
  for (const k of ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum'] as const)
    if (b[k] !== undefined) out[k] = b[k];
  return out;
}

function typeOf(row: ProtocolRow): Json {
  return row.default === null ? [row.type, 'null'] : row.type;
}

function specProperty(row: ProtocolRow): Block {
  if (row.schema) return { ...(row.schema as Block), description: row.description };
  if (row.type === 'enum') return { enum: row.enum!, description: row.description };
  return { type: typeOf(row), ...bounds(row), description: row.description };
}

/** The spec's `protocol:` block: every key of the table. */
export function specProtocol(table: ProtocolTable): Block {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(table.keys.map((r) => [r.key, specProperty(r)])),
  };
}

/** The recorded overrides of one file: the keys with a flag, as the flag parses them, then the others (device). */
export function overrides(table: ProtocolTable, file: 'journal' | 'bundle'): Block {
  const flagged = table.keys
    .filter((r) => r.flag && r.overrides.includes(file))
    .sort((a, b) => a.flag!.rank - b.flag!.rank);
  const property = (r: ProtocolRow): Block =>
    r.flag!.percent ? { type: ['number', 'null'], ...bounds(r) } : { type: 'integer', ...bounds(r) };
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...Object.fromEntries(flagged.map((r) => [r.key, property(r)])),
      ...(table.overrides_beside as Record<string, Json>),
    },
  };
}

/** The request's `settings`: the keys the harness receives (required unless their default is null), then the derived ones. */
export function requestSettings(table: ProtocolTable): Block {
  const note = (text: string | undefined): Block => (text === undefined ? {} : { description: text });
  const passed = table.keys.filter((r) => r.harness);
  const derived = table.request;
  const required = [
    ...passed.filter((r) => r.default !== null).map((r) => r.key),
    ...derived.filter((r) => r.required).map((r) => r.key),
  ];
  const properties: Block = {};
  for (const r of passed) properties[r.key] = { ...note(r.request_note), type: typeOf(r), ...bounds(r) };
  for (const r of derived)
    properties[r.key] = { ...note(r.request_note), ...((r.schema as Block) ?? { type: r.type, ...bounds(r) }) };
  return { type: 'object', additionalProperties: false, required, properties };
}

/** Every block the table writes. */
export const SCHEMA_BLOCKS: readonly SchemaBlock[] = [
  { file: 'spec.schema.json', pointer: '/$defs/protocol', layout: 'compact', make: specProtocol },
  {
    file: 'journal.schema.json',
    pointer: '/$defs/header/properties/overrides',
    layout: 'compact',
    make: (t) => overrides(t, 'journal'),
  },
  {
    file: 'bundle.schema.json',
    pointer: '/properties/overrides',
    layout: 'compact',
    make: (t) => overrides(t, 'bundle'),
  },
  { file: 'request.schema.json', pointer: '/properties/settings', layout: 'expanded', make: requestSettings },
];

/** `text` (a schema file) with the block of `block` written from the table. */
export function withBlock(text: string, block: SchemaBlock, table: ProtocolTable): string {
  const [start, end] = valueSpan(text, block.pointer);
  const lineStart = text.lastIndexOf('\n', start) + 1;
  const indent = /^ */.exec(text.slice(lineStart))![0].length;
  const value = block.make(table);
  const written =
    block.layout === 'compact'
      ? compact(value, indent)
      : JSON.stringify(value, null, 2).replace(/\n/g, `\n${' '.repeat(indent)}`);
  return text.slice(0, start) + written + text.slice(end);
}

/** Nesting of objects in a value (arrays add none): a flat object is 1. */
function depth(v: Json): number {
  if (Array.isArray(v)) return Math.max(0, ...v.map(depth));
  if (v !== null && typeof v === 'object') return 1 + Math.max(0, ...Object.values(v).map(depth));
  return 0;
}

function inline(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    return entries.length === 0
      ? '{}'
      : `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }`;
  }
  return JSON.stringify(v);
}

/** The layout of spec, journal and bundle schemas: a flat object on one line, a deeper one a key per line. */
function compact(v: Json, indent: number): string {
  if (depth(v) <= 1 || Array.isArray(v) || v === null || typeof v !== 'object') return inline(v);
  const pad = ' '.repeat(indent + 2);
  const lines = Object.entries(v).map(([k, x]) => `${pad}${JSON.stringify(k)}: ${compact(x, indent + 2)}`);
  return `{\n${lines.join(',\n')}\n${' '.repeat(indent)}}`;
}

/** [start, end) of the value a JSON pointer names in a JSON text (the text is well-formed: the schemas parse). */
export function valueSpan(text: string, pointer: string): [number, number] {
  const want = pointer.split('/').slice(1);
  let i = 0;
  let found: [number, number] | null = null;
  const skip = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const stringEnd = (from: number) => {
    let j = from + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  const value = (path: string[]): void => {
    skip();
    const start = i;
    const open = text[i];
    if (open === '{' || open === '[') {
      i++;
      for (let n = 0; ; n++) {
        skip();
        if (text[i] === '}' || text[i] === ']') break;
        let key = String(n);
        if (open === '{') {
          const end = stringEnd(i);
          key = JSON.parse(text.slice(i, end)) as string;
          i = end;
          skip();
          i++; // the colon
        }
        value([...path, key]);
        skip();
        if (text[i] === ',') i++;
      }
      i++;
    } else if (open === '"') i = stringEnd(i);
    else while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
    if (found === null && path.length === want.length && path.every((p, k) => p === want[k])) found = [start, i];
  };
  value([]);
  if (found === null) throw new Error(`no ${pointer} in the schema`);
  return found;
}
