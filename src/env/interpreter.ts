// Which interpreters a spec may have benchgrid start (docs/spec.md, environments; docs/security.md):
// a name like python3 is looked up on the user's PATH; an absolute path must be a real executable
// program named like an interpreter, not a script, since a spec from a pull request could point at a script
// it brings along, or at /bin/sh, which reads `-m pip` as "run the file ./pip" (one the pull request planted).
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { inside } from '../util/files.ts';

/** Binary executable formats: ELF (Linux) and Mach-O (macOS, both byte orders and the universal one). */
const MAGIC = [
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]),
  Buffer.from([0xcf, 0xfa, 0xed, 0xfe]),
  Buffer.from([0xfe, 0xed, 0xfa, 0xcf]),
  Buffer.from([0xca, 0xfe, 0xba, 0xbe]),
];

/** How an interpreter is named: on PATH (python3), and as the last part of an absolute path and of what it links to. */
const INTERPRETER_NAME = /^python[0-9.]*$/;

/** Refuses an interpreter benchgrid must not start; returns nothing when it may be started. */
export function checkInterpreter(python: string): void {
  if (INTERPRETER_NAME.test(python)) return;
  if (!python.startsWith('/'))
    throw new UserError(
      `the environment's python '${python}' is neither a name like python3 nor an absolute path. Name an interpreter (docs/spec.md).`,
    );
  let head: Buffer;
  let real: string;
  try {
    real = fs.realpathSync(python);
    if (!fs.statSync(real).isFile()) throw new Error('not a file');
    fs.accessSync(real, fs.constants.X_OK);
    const fd = fs.openSync(real, 'r');
    try {
      head = Buffer.alloc(4);
      fs.readSync(fd, head, 0, 4, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw new UserError(
      `the environment's python ${python} is not an executable file (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). Install it, or name another interpreter.`,
    );
  }
  if (!MAGIC.some((m) => head.equals(m))) {
    throw new UserError(
      `the environment's python ${python} is not a compiled program (a script, perhaps); benchgrid starts only real interpreters named by absolute path. Name the interpreter itself, e.g. the output of \`python3 -c 'import sys; print(sys.executable)'\`.`,
    );
  }
  if (![python, real].every((p) => INTERPRETER_NAME.test(path.basename(p)))) {
    throw new UserError(
      `the environment's python ${python} is not named like a Python interpreter (python, python3, python3.11); benchgrid starts no other program as one. Name the interpreter itself, e.g. the output of \`python3 -c 'import sys; print(sys.executable)'\`.`,
    );
  }
}

/**
 * For the commands that only read a spec and start its interpreter at the user's explicit request
 * (`plan --sizes`, `validate --check-index`): also refuses an interpreter that lies in the spec's own tree,
 * a program the spec brought along rather than one installed on this machine.
 */
export function checkForeignInterpreter(python: string, specDir: string): void {
  checkInterpreter(python);
  if (!python.startsWith('/')) return;
  const real = fs.realpathSync(python);
  if (inside(real, fs.realpathSync(specDir)))
    throw new UserError(
      `the environment's python ${python} lies in the spec's own directory ${specDir}: a program that came with the spec, which plan and validate never start. Name an interpreter installed on this machine.`,
    );
}
