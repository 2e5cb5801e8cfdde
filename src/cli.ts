// The command line: registers each command (loaded lazily) and is the one error boundary.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EXIT, EXIT_HELP, ExitCode, UserError } from './errors.ts';
import { EXAMPLES, examples } from './cli-help.ts';
import { errorObject, jsonRequested, normaliseFormat } from './cli-format.ts';
import { guardTerminal } from './util/terminal.ts';
import { keepFileSizeErrors } from './util/files.ts';
import { THRESHOLD_HELP } from './compare/threshold.ts';
import { SCHEDULE_KINDS } from './run/schedule.ts';

const program = new Command('benchgrid')
  .description('Benchmark PyTorch capture and intervention tools against each other, from a declarative spec.')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  .addHelpText('after', `${examples(EXAMPLES.benchgrid)}\n${EXIT_HELP}\n`)
  // One convention for output formats: --json is --format json.
  .hook('preAction', (_root, command) => normaliseFormat(command));

program
  .command('init')
  .description('Write a starter spec for a torchvision or Hugging Face model: it validates and runs as written.')
  .argument('[file]', 'where to write it (default specs/<model>_starter.yaml)')
  .option('--model <model>', 'torchvision:<name> (e.g. torchvision:resnet18) or hf:gpt2 (random weights, nothing downloaded)', 'torchvision:resnet18')
  .option('--site <module>', 'module whose output the contracts read (default: layer2 for ResNets, transformer.h.1 for GPT-2)')
  .addOption(new Option('--device <device>', 'device of the spec').choices(['cpu', 'cuda']).default('cpu'))
  .option('--name <name>', "the spec's name (default from the file name)")
  .option('--force', 'overwrite an existing file')
  .option('--tool <name>', "instead of a spec: write a runner for a new tool in the spec's own runners directory (specs/runners/NAME), with the lines that declare it (docs/adding-a-tool.md)")
  .option('--library <dist>', '--tool: the PyPI distribution the adapter imports (its version is recorded; its absence makes cells unsupported)')
  .option('--spec <spec>', "--tool: the spec the tool is for; the runner goes into runners/ beside it")
  .addHelpText('after', examples(EXAMPLES.init))
  .action(async (file: string | undefined, opts) => (await import('./commands/init.ts')).init(file, opts));

program
  .command('validate')
  .description('Check specs against the schema and the semantic rules; print file:line:col diagnostics.')
  .argument('<spec...>', 'spec files')
  .addOption(new Option('--format <format>', 'output format (table: diagnostics on stderr)').choices(['table', 'json']).default('table'))
  .option('--json', 'print the diagnostics as JSON (same as --format json)')
  .addHelpText('after', examples(EXAMPLES.validate))
  .option('--check-index', "ask the package index (with pip) that every release in a tool's `versions` exists; off by default (network)")
  .option('--probe', "build each subject once in its environment (built first if missing) and check that every site is in its model, naming the nearest module paths when one is not")
  .option('--python <path>', '--probe: build the subjects with this interpreter instead of the spec\'s environments')
  .action(async (specs: string[], opts) => (await import('./commands/validate.ts')).validate(specs, opts));

program
  .command('plan')
  .description('Expand a spec into cells: which run, which are unsupported and why.')
  .argument('<spec>', 'spec file')
  .option('--only <globs>', "only cells whose id matches one of these comma-separated globs, e.g. 'A/*/hooks/*' or 'A/*/{raw,hooks}/*' (docs/spec.md#selecting-cells)")
  .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
  .option('--json', 'print the plan as JSON (same as --format json)')
  .option('--no-sizes', 'do not ask pip what the environments still to build would download (it needs the package index; the answer is cached)')
  .addHelpText('after', examples(EXAMPLES.plan))
  .action(async (spec: string, opts) => (await import('./commands/plan.ts')).plan(spec, opts));

program
  .command('report')
  .description("Render a results file (benchgrid's or the seed's): terminal grid, markdown page, self-contained HTML, or JSON.")
  .argument('<results>', 'results.json, or a run directory')
  .option('--spec <spec>', "spec whose labels, order and page to use (the page rows come from its 'page' section)")
  .addOption(new Option('--format <format>', 'output format').choices(['table', 'markdown', 'html', 'json']).default('table'))
  .option('--json', 'same as --format json')
  .option('--out <file>', 'write to this file instead of stdout')
  .addHelpText('after', examples(EXAMPLES.report))
  .action(async (results: string, opts) => (await import('./commands/report.ts')).report(results, opts));

program
  .command('diff')
  .description('Show what a spec change does to the matrix: cells added, removed, flipped, and to re-measure.')
  .argument('[specs...]', 'OLD.yaml NEW.yaml; with --base, the specs to compare (default: every spec changed since REV)')
  .option('--base <rev>', 'compare each spec with its version at git revision REV (read from git, nothing checked out)')
  .addOption(new Option('--format <format>', "output format ('terminal' is an old name of table)").choices(['table', 'markdown', 'json', 'terminal']).default('table'))
  .option('--json', 'same as --format json')
  .option('--exit-code', `exit ${EXIT.differenceFound} when anything changed, like git diff --exit-code`)
  .addHelpText('after', examples(EXAMPLES.diff))
  .action(async (specs: string[], opts) => (await import('./commands/diff.ts')).diff(specs, opts));

program
  .command('run')
  .description('Run every planned cell of a spec in fresh Python processes; write results.json and reports.')
  .argument('[spec]', 'spec file (not needed with --resume)')
  .option('--out <dir>', 'results directory (default results/<spec>/<timestamp>)')
  .option('--resume <dir>', 'complete an interrupted run: only what is missing runs')
  .option('--only <globs>', "only cells whose id matches one of these comma-separated globs, e.g. 'A/*/hooks/*' or 'A/*/{raw,hooks}/*' (docs/spec.md#selecting-cells)")
  .addOption(new Option('--device <device>', 'override the spec\'s device').choices(['cpu', 'cuda']))
  .option('--processes <n>', 'processes per cell (override, recorded in the results)', positiveInt('--processes', 1000))
  .option('--samples <n>', 'timed samples per process (override, recorded in the results)', positiveInt('--samples', 100_000))
  .option('--python <path>', 'run every environment with this interpreter instead of cached virtual environments')
  .option('--changed-since <rev>', 'only the cells a spec change since git revision REV invalidated')
  .option('--no-probe', 'skip the subject probe at the start (each subject built once to check that its sites exist)')
  .option('--tool-source <tool=source>', 'install TOOL (a tool id or package) from SOURCE for this run: a directory, git:REV (the current directory\'s repository) or git:REPO@REV (repeatable; docs/ci.md)', repeatable)
  .option('--jobs <n>', 'cell processes at once, each pinned to its own cores (default 1)', positiveInt('--jobs', 1024))
  .addOption(new Option('--start <mode>', 'how cell processes start: cold interpreters, or forks of a clean parent').choices(['cold', 'fork']))
  .addOption(new Option('--schedule <kind>', 'order of the processes: rounds of every cell shuffled with a recorded seed, or each cell\'s processes together (default: the spec\'s protocol.schedule, else interleaved)').choices(SCHEDULE_KINDS))
  .option('--seed <n>', 'seed of the interleaved schedule\'s shuffles (default: a fresh one, recorded in the results)', seedInt)
  .addOption(new Option('--executor <name>', 'where cell processes run: here, or as a Slurm array job').choices(['local', 'slurm']).default('local'))
  .option('--partition <name>', 'slurm: partition (default: the spec\'s slurm.partition, else the cluster\'s default)')
  .option('--gpus-per-task <n>', 'slurm: GPUs per array task (default 1 for a cuda spec)', nonNegativeInt('--gpus-per-task', 64))
  .option('--cpus-per-task <n>', 'slurm: CPUs per array task (default: the protocol\'s threads)', positiveInt('--cpus-per-task', 1024))
  .option('--time-limit <time>', 'slurm: time limit per task, e.g. 2:00:00')
  .option('--sbatch-arg <arg>', 'slurm: one extra sbatch argument, e.g. --sbatch-arg=--qos=short (repeatable)', (v: string, all: string[] = []) => [...all, v])
  .option('--shared-dir <dir>', 'slurm: directory seen by the login and compute nodes (default results/<spec>/slurm-<timestamp>)')
  .option('--shards <n>', 'slurm: array tasks, each running a share of the cells (default 1)', positiveInt('--shards', 10_000))
  .option('--no-wait', 'slurm: submit and return; finish later with `benchgrid ingest SHARED_DIR`')
  .addOption(new Option('--format <format>', 'summary format: table on stderr, or json on stdout').choices(['table', 'json']).default('table'))
  .option('--json', 'print the summary as JSON on stdout (same as --format json)')
  .addHelpText('after', examples(EXAMPLES.run))
  .action(async (spec: string | undefined, opts) => (await import('./commands/run.ts')).run(spec, opts));

program
  .command('bench-change')
  .description("A tool's cells for two versions of its code (base and head) in one interleaved run, then compare's verdict of head against base (docs/ci.md).")
  .argument('[spec]', 'spec file (not needed with --resume)')
  .option('--tool <name>', 'the tool id, or the package its tools use (e.g. torchlens: every torchlens tool of the spec)')
  .option('--base <source>', "the code before: git:REV (the current directory's repository), git:REPO@REV, a directory, or pinned (the spec's own release)")
  .option('--head <source>', 'the code after, in the same forms', '.')
  .option('--only <globs>', "only the tool's cells whose id (as the spec names them) matches one of these globs")
  .option('--out <dir>', 'run directory (default results/<spec>/change-<timestamp>)')
  .option('--resume <dir>', 'complete an interrupted bench-change run, then compare')
  .option('--no-probe', 'skip the subject probe at the start (each subject built once to check that its sites exist)')
  .option('--processes <n>', 'processes per cell and side (override, recorded in the results)', positiveInt('--processes', 1000))
  .option('--samples <n>', 'timed samples per process (override, recorded in the results)', positiveInt('--samples', 100_000))
  .option('--jobs <n>', 'cell processes at once, each pinned to its own cores (default 1)', positiveInt('--jobs', 1024))
  .addOption(new Option('--start <mode>', 'how cell processes start: cold interpreters, or forks of a clean parent').choices(['cold', 'fork']))
  .option('--seed <n>', "seed of the interleaved schedule's shuffles (default: a fresh one, recorded in the results)", seedInt)
  .option('--threshold <pct>', THRESHOLD_HELP)
  .addOption(new Option('--mode <mode>', "which rule decides a label: ratio (each cell relative to its group's raw cell) or absolute").choices(['ratio', 'absolute']).default('ratio'))
  .option('--fail-on-slower <pct>', `exit ${EXIT.differenceFound} when a cell, or the tool over its cells, is significantly slower by more than this percentage`)
  .option('--only-changed', 'show only cells whose speed label, status or exactness changed')
  .addOption(new Option('--sort <order>', 'order of the cells').choices(['file', 'change', 'id']).default('file'))
  .addOption(new Option('--format <format>', 'output format (markdown: a PR comment, also written to the run directory as change.md)').choices(['table', 'markdown', 'json']).default('table'))
  .option('--json', 'same as --format json')
  .addHelpText('after', examples(EXAMPLES['bench-change']))
  .action(async (spec: string | undefined, opts) => (await import('./commands/bench-change.ts')).benchChange(spec, opts));

program
  .command('export')
  .description('Write a self-contained bundle (requests, harness, runners, requirements, driver.py) that runs with Python alone.')
  .argument('<spec>', 'spec file')
  .requiredOption('--out <dir>', 'bundle directory (must be new or empty)')
  .option('--only <globs>', "only cells whose id matches one of these comma-separated globs, e.g. 'A/*/hooks/*' or 'A/*/{raw,hooks}/*' (docs/spec.md#selecting-cells)")
  .option('--shard <i/n>', 'only shard I of N (cells split round-robin; a cell\'s processes stay together)')
  .addOption(new Option('--device <device>', 'override the spec\'s device').choices(['cpu', 'cuda']))
  .option('--processes <n>', 'processes per cell (override, recorded in the results)', positiveInt('--processes', 1000))
  .option('--samples <n>', 'timed samples per process (override, recorded in the results)', positiveInt('--samples', 100_000))
  .addOption(new Option('--schedule <kind>', 'order of the processes: rounds of every cell shuffled with a recorded seed, or each cell\'s processes together (default: the spec\'s protocol.schedule, else interleaved)').choices(SCHEDULE_KINDS))
  .option('--seed <n>', 'seed of the interleaved schedule\'s shuffles (default: a fresh one, recorded in the results)', seedInt)
  .addOption(new Option('--format <format>', 'summary format').choices(['table', 'json']).default('table'))
  .option('--json', 'print a JSON summary on stdout (same as --format json)')
  .addHelpText('after', examples(EXAMPLES.export))
  .action(async (spec: string, opts) => (await import('./commands/export.ts')).exportCommand(spec, opts));

program
  .command('ingest')
  .description('Validate and merge bundles run by their drivers (or a Slurm submission) into one results.json with reports.')
  .argument('<dirs...>', 'bundle directories (the shards of one export), or one Slurm shared directory')
  .option('--out <dir>', 'results directory (default results/<spec>/<timestamp>; for Slurm, the shared directory)')
  .option('--partial', 'accept processes that never ran; the results are marked partial')
  .addOption(new Option('--format <format>', 'summary format').choices(['table', 'json']).default('table'))
  .option('--json', 'print a JSON summary on stdout (same as --format json)')
  .addHelpText('after', examples(EXAMPLES.ingest))
  .action(async (dirs: string[], opts) => (await import('./commands/ingest.ts')).ingest(dirs, opts));

program
  .command('history')
  .description('An offline site of every cell over runs and tool releases, with the regressions and improvements found (docs/versions.md).')
  .argument('<results-dir...>', 'run directories, results/<spec>/ directories, or results/')
  .requiredOption('--out <dir>', 'where to write index.html and the runs\' reports')
  .option('--threshold <pct>', `compare's ${THRESHOLD_HELP}`)
  .addHelpText('after', examples(EXAMPLES.history))
  .action(async (dirs: string[], opts) => (await import('./commands/history.ts')).history(dirs, opts));

program
  .command('env')
  .description('The Python environments of specs: list them with their disk cost, build the missing ones, or prune the cache.')
  .addArgument(new Argument('<action>', 'list, build or prune').choices(['list', 'build', 'prune']))
  .argument('[spec...]', 'spec files (prune: remove cached environments these do not use)')
  .addOption(new Option('--format <format>', 'output format (list)').choices(['table', 'json']).default('table'))
  .option('--json', 'print as JSON (list; same as --format json)')
  .option('--older-than <days>', 'prune: only environments built more than DAYS days ago')
  .option('--yes', 'prune: remove them (default: only print what would be removed)')
  .addHelpText('after', examples(EXAMPLES.env))
  .action(async (action: 'list' | 'build' | 'prune', specs: string[], opts) => {
    if (action !== 'prune' && specs.length === 0) program.error(`error: env ${action} needs at least one spec file`, { exitCode: 2 });
    return (await import('./commands/env.ts')).env(action, specs, opts);
  });

program
  .command('compare')
  .description('Compare two results files cell by cell: speed labels, status and exactness changes, environment differences.')
  .argument('<before>', 'results file (or run directory) of the baseline run (benchgrid or the seed layout)')
  .argument('<after>', 'results file (or run directory) of the run to judge')
  .addOption(new Option('--format <format>', 'output format (markdown: ready to paste as a PR comment)').choices(['table', 'markdown', 'json']).default('table'))
  .option('--json', 'same as --format json')
  .option('--only-changed', 'show only cells whose speed label, status or exactness changed')
  .addOption(new Option('--sort <order>', 'order of the cells: as in the files, by change (largest slowdown first), or by id').choices(['file', 'change', 'id']).default('file'))
  .option('--threshold <pct>', THRESHOLD_HELP)
  .addOption(new Option('--mode <mode>', 'which rule decides a label: ratio (each cell relative to its group\'s raw cell in the same run; absolute where it cannot) or absolute (own times, threshold widened by the run shift)').choices(['ratio', 'absolute']).default('ratio'))
  .option('--strict-env', 'refuse to compare (exit 2) when the environments differ')
  .option('--fail-on-slower <pct>', `exit ${EXIT.differenceFound} when a cell, or a tool over its cells, is significantly slower by more than this percentage`)
  .option('--out <file>', 'write the comparison to a file instead of stdout')
  .addHelpText('after', examples(EXAMPLES.compare))
  .action(async (before: string, after: string, opts) => (await import('./commands/compare.ts')).compare(before, after, opts));

program
  .command('tools')
  .description('Every adapter benchgrid can run (built in, in runners/, and in specs/runners/ of the project in the current directory): its runner, library, the releases installed in the cached environments, and the contracts it implements.')
  .argument('[spec]', "a spec: adds its own runners, the releases its environments pin, and which of its tools use each adapter")
  .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
  .option('--json', 'print the adapters as JSON (same as --format json)')
  .addHelpText('after', examples(EXAMPLES.tools))
  .action(async (spec: string | undefined, opts) => (await import('./commands/tools.ts')).tools(spec, opts));

program
  .command('system')
  .description('What makes this machine noisy for timing: load, busy processes, CPU frequency governor and boost, cores, memory, steal time.')
  .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
  .option('--json', 'print the facts and checks as JSON (same as --format json)')
  .addHelpText('after', examples(EXAMPLES.system))
  .action(async (opts) => (await import('./commands/system.ts')).system(opts));

program
  .command('ratios')
  .description('Each tool\'s median over the base tool\'s (raw) within each run, runs side by side: compares machines that times cannot (docs/gpu.md).')
  .argument('<results...>', 'results files (benchgrid or the seed layout), first the baseline')
  .option('--label <label>', 'a column title per results file, in order (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
  .option('--base <tool>', 'the tool every ratio is taken to', 'raw')
  .option('--tools <names>', 'comma-separated tools, a trailing * matching a prefix, or all (default: hooks,nnsight,tv_fx,tl_*)')
  .option('--tolerance <pct>', 'mark a change of the ratio beyond this percentage (default: 10)')
  .addOption(new Option('--format <format>', 'output format').choices(['table', 'markdown', 'json']).default('table'))
  .option('--json', 'same as --format json')
  .option('--out <file>', 'write the table to a file instead of stdout')
  .addHelpText('after', examples(EXAMPLES.ratios))
  .action(async (files: string[], opts) => (await import('./commands/ratios.ts')).ratios(files, opts));

/**
 * A reader that closes stdout early (`benchgrid run --help | head`, quitting a pager) gets no more output,
 * and the command goes on: a run keeps measuring and writing its files. Without this, Node's unhandled EPIPE
 * ended the process with a stack trace.
 */
function dropOutputToClosedPipe(): void {
  if (process.stdout.listenerCount('error') > 0) return;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.stdout.write = (() => true) as typeof process.stdout.write;
  });
}

/** Runs the CLI with an argv; resolves to the exit code. Exported for tests. */
export async function main(argv: string[]): Promise<number> {
  keepFileSizeErrors();
  dropOutputToClosedPipe();
  const restore = guardTerminal();
  // With JSON asked for, a failure that printed nothing on stdout still answers there, as a JSON error.
  const json = jsonRequested(argv);
  let wrote = false;
  const write = process.stdout.write.bind(process.stdout);
  if (json) process.stdout.write = ((...args: Parameters<typeof write>) => ((wrote = true), write(...args))) as typeof process.stdout.write;
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    const code = exitCodeOf(error);
    if (json && !wrote && code !== EXIT.ok) write(JSON.stringify(errorObject(error, code)) + '\n');
    return code;
  } finally {
    if (json) process.stdout.write = write;
    restore();
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ExitCode) return error.exitCode;
  if (error instanceof UserError) {
    for (const line of error.details) process.stderr.write(line + '\n');
    process.stderr.write(`benchgrid: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; usage errors were already printed by commander.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const stack = error instanceof Error ? error.stack ?? error.message : String(error);
  process.stderr.write(`benchgrid: internal error (a bug in benchgrid, please report it with the command you ran):\n${stack}\n`);
  return EXIT.internal;
}

/** A commander parser for integer options that may be zero, up to a documented maximum (docs/security.md). */
function nonNegativeInt(name: string, max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer (got '${value}').`);
    if (n > max) throw new InvalidArgumentError(`${name} may be at most ${max} (got '${value}').`);
    return n;
  };
}

/** A repeatable option's parser: every value, in order. */
function repeatable(value: string, all: string[] = []): string[] {
  return [...all, value];
}

/** A commander parser for --seed: the schedule's PRNG takes a 32-bit unsigned integer. */
function seedInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) throw new InvalidArgumentError(`--seed must be an integer from 0 to 4294967295 (got '${value}').`);
  return n;
}

/** A commander parser for positive integer options, up to a documented maximum (docs/security.md). */
function positiveInt(name: string, max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer (got '${value}').`);
    if (n > max) throw new InvalidArgumentError(`${name} may be at most ${max} (got '${value}').`);
    return n;
  };
}

export { program, Option };

/**
 * Whether this module is the program Node was started with (`node dist/cli.js ...`, through a symbolic
 * link too): then it runs its arguments itself. bin/benchgrid.js imports it and calls main() instead.
 */
function isEntryPoint(): boolean {
  if (!process.argv[1]) return false;
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = await main(process.argv.slice(2));
}
