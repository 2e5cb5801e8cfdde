// The architecture rules, checked on the source itself: small functions (TypeScript read with the
// compiler API, Python with its own `ast`), no lower layer importing commands/, no import cycle between
// the folders of src/, no development dependency in what ships, and no casts to `any`/`never` where the
// types carry the design (spec, run, commands).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, testPython, tmpdir, write } from './helpers.ts';

const MAX_LINES = 80;

function tsFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return tsFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    sf = ts.createSourceFile(file, fs.readFileSync(path.resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, sf);
  }
  return sf;
}

/** Every node of a file, depth first. */
function nodes(sf: ts.SourceFile): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (n: ts.Node) => {
    out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

/** A function's name: its own, or the variable or property it is assigned to. */
function nameOf(sf: ts.SourceFile, fn: ts.FunctionLikeDeclaration): string {
  const named =
    fn.name ?? (ts.isVariableDeclaration(fn.parent) || ts.isPropertyAssignment(fn.parent) ? fn.parent.name : undefined);
  return named ? named.getText(sf) : `<anonymous at line ${lineOf(sf, fn.getStart(sf))}>`;
}

/** `file:function (N lines)` for every TypeScript function with a body longer than MAX_LINES. */
function longTsFunctions(files: string[]): string[] {
  return files.flatMap((file) => {
    const sf = parse(file);
    return nodes(sf).flatMap((n) => {
      if (!ts.isFunctionLike(n) || !('body' in n) || !n.body) return [];
      const lines = lineOf(sf, n.getEnd()) - lineOf(sf, n.getStart(sf)) + 1;
      return lines > MAX_LINES ? [`${file}:${nameOf(sf, n)} (${lines} lines)`] : [];
    });
  });
}

/** Module specifiers of a file's imports, re-exports and dynamic import() calls. */
function importsOf(sf: ts.SourceFile): string[] {
  return nodes(sf).flatMap((n) => {
    if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    )
      return [n.moduleSpecifier.text];
    if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    )
      return [n.arguments[0].text];
    return [];
  });
}

/** The folder of src/ a file belongs to: its first directory under src/, or the file itself at the top. */
function folderOf(file: string, src: string): string {
  const rel = path.relative(src, path.resolve(ROOT, file)).split(path.sep);
  return rel.length > 1 ? rel[0] : rel[0].replace(/\.ts$/, '');
}

/** Folder -> folders it imports (relative imports only), each edge with one file that makes it. */
function folderEdges(files: string[], src = path.join(ROOT, 'src')): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const f of files) {
    for (const spec of importsOf(parse(f)).filter((s) => s.startsWith('.'))) {
      const from = folderOf(f, src);
      const to = folderOf(path.resolve(ROOT, path.dirname(f), spec), src);
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${f} imports ${spec}`);
    }
  }
  return edges;
}

/** Every cycle between folders, as "a -> b -> a (a/x.ts imports ..., b/y.ts imports ...)", one per cycle found by depth-first search. */
function folderCycles(edges: Map<string, Map<string, string>>): string[] {
  const out: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of edges.get(n)?.keys() ?? []) {
      if (state.get(m) === 'open') {
        const loop = [...stack.slice(stack.indexOf(m)), m];
        const why = loop.slice(1).map((b, i) => edges.get(loop[i])!.get(b)!);
        out.push(`${loop.join(' -> ')} (${why.join('; ')})`);
      } else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...edges.keys()].sort()) if (!state.has(n)) visit(n);
  return out;
}

/** `file:line` of every `x as any`, `x as never`, `<any>x` and `<never>x`. */
function anyOrNeverCasts(files: string[]): string[] {
  return files.flatMap((file) => {
    const sf = parse(file);
    return nodes(sf).flatMap((n) => {
      if (!ts.isAsExpression(n) && !ts.isTypeAssertionExpression(n)) return [];
      const k = n.type.kind;
      return k === ts.SyntaxKind.AnyKeyword || k === ts.SyntaxKind.NeverKeyword
        ? [`${file}:${lineOf(sf, n.getStart(sf))}`]
        : [];
    });
  });
}

const PY_LONG = `
import ast, json, pathlib, sys
out = []
for p in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"), str(p))):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([n.lineno] + [d.lineno for d in n.decorator_list])
            if n.end_lineno - start + 1 > ${MAX_LINES}:
                out.append(f"{p.relative_to(sys.argv[2])}:{n.name} ({n.end_lineno - start + 1} lines)")
print(json.dumps(out))
`;

describe('the architecture rules', () => {
  it(`has no TypeScript function over ${MAX_LINES} lines in src/`, () => {
    expect(longTsFunctions(tsFiles('src'))).toEqual([]);
  });

  it(`has no Python function over ${MAX_LINES} lines in runners/`, async () => {
    const r = await execa(await testPython(), ['-c', PY_LONG, path.join(ROOT, 'runners'), ROOT]);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('finds what it looks for: a long function and a cast in a file made for the purpose', () => {
    const file = path.join(tmpdir(), 'big.ts');
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i} as any;`).join('\n');
    fs.writeFileSync(file, `export const big = () => {\n${body}\n};\nfunction fine() {\n  return 1;\n}\n`);
    expect(longTsFunctions([file])).toEqual([`${file}:big (${MAX_LINES + 2} lines)`]);
    expect(anyOrNeverCasts([file])).toHaveLength(MAX_LINES);
  });

  it('has no import from commands/ below the command layer (only cli.ts, the declarations in cli/ and commands/ may)', () => {
    const commands = path.join(ROOT, 'src/commands');
    const offenders = tsFiles('src')
      .filter((f) => !f.startsWith('src/commands/') && !f.startsWith('src/cli/') && f !== 'src/cli.ts')
      .flatMap((f) =>
        importsOf(parse(f))
          .filter(
            (spec) => spec.startsWith('.') && path.resolve(ROOT, path.dirname(f), spec).startsWith(commands + path.sep),
          )
          .map((spec) => `${f} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('has commands that are no libraries: a command module, and its declaration in src/cli/, import no other command module', () => {
    const names = tsFiles('src/cli').flatMap(
      (f) => /defineCommand\(\s*'([a-z-]+)'/.exec(fs.readFileSync(path.join(ROOT, f), 'utf8'))?.slice(1) ?? [],
    );
    expect(names).toEqual(expect.arrayContaining(['run', 'bench-change', 'bisect', 'compare', 'validate']));
    const commandModule = (file: string) => path.join(ROOT, 'src/commands', `${file}.ts`);
    const offenders = [...tsFiles('src/commands'), ...tsFiles('src/cli')].flatMap((f) => {
      const own = path.basename(f, '.ts');
      return importsOf(parse(f))
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) =>
          names.some((n) => n !== own && path.resolve(ROOT, path.dirname(f), spec) === commandModule(n)),
        )
        .map((spec) => `${f} imports ${spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between the folders of src/ (each cycle named with the imports that make it)', () => {
    expect(folderCycles(folderEdges(tsFiles('src')))).toEqual([]);
  });

  it('finds a folder cycle in files made for the purpose, and names it', () => {
    const dir = tmpdir();
    write(dir, 'src/a/x.ts', "import { y } from '../b/y.ts';\nexport const x = y;\n");
    write(dir, 'src/b/y.ts', "import type { x } from '../a/x.ts';\nexport const y = 1;\n");
    write(dir, 'src/c/z.ts', "import { x } from '../a/x.ts';\nexport const z = x;\n");
    const files = ['src/a/x.ts', 'src/b/y.ts', 'src/c/z.ts'].map((f) => path.join(dir, f));
    expect(folderCycles(folderEdges(files, path.join(dir, 'src')))).toEqual([
      `a -> b -> a (${files[0]} imports ../b/y.ts; ${files[1]} imports ../a/x.ts)`,
    ]);
  });

  it('ships no development dependency: nothing in src/ imports a devDependency of package.json', () => {
    const dev = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies ?? {});
    const offenders = tsFiles('src').flatMap((f) =>
      importsOf(parse(f))
        .filter((spec) => dev.some((d) => spec === d || spec.startsWith(`${d}/`)))
        .map((spec) => `${f} imports ${spec}`),
    );
    expect(dev).toContain('playwright-core');
    expect(offenders).toEqual([]);
  });

  it('cites no "issue N" in src/, runners/, bench/, scripts/ and bin/: code says why, history is in git and docs', () => {
    const ending = (dir: string, ends: string[]): string[] =>
      fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) return ending(rel, ends);
        return ends.some((x) => e.name.endsWith(x)) ? [rel] : [];
      });
    const code = ['.ts', '.py', '.sh', '.js', '.mjs'];
    const files = [...tsFiles('src'), ...['runners', 'bench', 'scripts', 'bin'].flatMap((d) => ending(d, code))];
    expect(files).toContain('scripts/gpu-check.sh');
    const offenders = files.flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bissues? \d+/i.test(line) ? [`${f}:${i + 1}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('has no cast to `any` or `never` in src/spec, src/run (and what left it: executors, records, sampling) and src/commands', () => {
    const files = ['src/spec', 'src/run', 'src/executors', 'src/records', 'src/sampling', 'src/commands'].flatMap(
      tsFiles,
    );
    expect(anyOrNeverCasts(files)).toEqual([]);
  });
});
