// The command line: registers each command (loaded lazily) and is the one error boundary.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Argument, Command, CommanderError, Option } from 'commander';
import { EXIT, EXIT_HELP, ExitCode, UserError } from './errors.ts';
import { EXAMPLES, examples } from './cli-help.ts';
import { errorObject, jsonRequested, normaliseFormat } from './cli-format.ts';
import { addFormat, addShared, boundedInt, repeatable } from './cli-options.ts';
import { guardTerminal } from './util/terminal.ts';
import { keepFileSizeErrors, writeFailure } from './util/files.ts';
import { THRESHOLD_HELP } from './compare/threshold.ts';

const program = new Command('benchgrid')
  .description('Benchmark PyTorch capture and intervention tools against each other, from a declarative spec.')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  .addHelpText('after', `${examples(EXAMPLES.benchgrid)}\n${EXIT_HELP}\n`)
  // One convention for output formats: --json is --format json.
  .hook('preAction', (_root, command) => normaliseFormat(command));

/** A command of the program, with its description and the examples `--help` ends with (src/cli-help.ts). */
function command(name: string, description: string): Command {
  return program.command(name).description(description).addHelpText('after', examples(EXAMPLES[name]));
}

command('init', 'Write a starter spec for a torchvision, Hugging Face or own model: it validates and runs as written.')
  .argument('[file]', 'where to write it (default specs/<model>_starter.yaml; the current directory when a file it names lies outside specs/)')
  .option('--model <model>', 'torchvision:<name> (default torchvision:resnet18); hf:gpt2, hf:pythia, hf:smollm (realistic sizes, random weights) or hf:<model_type> (e.g. hf:qwen2); hf:ORG/NAME (weights from the local Hugging Face cache); python:FILE.py:FUNCTION (your own model)')
  .option('--weights <path>', 'real weights: a save_pretrained directory (the model and, with a tokenizer there, prompts come from it) or a state_dict file for a torchvision or python model')
  .option('--inputs <inputs>', 'a vision or own model\'s inputs: image:NxCxHxW (default image:1x3x224x224), tokens:BATCHxLENGTH:VOCAB, or builder (your function returns (model, inputs))')
  .option('--site <module>', 'module whose output the contracts read (default: layer2 for ResNets, the middle block for language models; needed for other models)')
  .addOption(new Option('--device <device>', 'device of the spec').choices(['cpu', 'cuda']).default('cpu'))
  .option('--name <name>', "the spec's name (default from the file name)")
  .option('--force', 'overwrite an existing file')
  .option('--tool <name>', "instead of a spec: write a runner for a new tool in the spec's own runners directory (specs/runners/NAME), with the lines that declare it (docs/adding-a-tool.md)")
  .option('--library <dist>', '--tool: the PyPI distribution the adapter imports (its version is recorded; its absence makes cells unsupported)')
  .option('--spec <spec>', "--tool: the spec the tool is for; the runner goes into runners/ beside it")
  .action(async (file: string | undefined, opts) => (await import('./commands/init.ts')).init(file, opts));

const validate = command('validate', 'Check specs against the schema and the semantic rules; print file:line:col diagnostics.')
  .argument('<spec...>', 'spec files');
addFormat(validate, ['table', 'json'], 'output format (table: diagnostics on stderr)', 'print the diagnostics as JSON (same as --format json)')
  .option('--check-index', "ask the package index (with pip) that every release in a tool's `versions` exists; off by default (network)")
  .option('--probe', "build each subject once in its environment (built first if missing) and check that every site is in its model, naming the nearest module paths when one is not")
  .option('--python <path>', '--probe: build the subjects with this interpreter instead of the spec\'s environments')
  .option('--allow-downloads', 'accept hub weights (hf:...) not yet in the local Hugging Face cache: `run --allow-downloads` fetches them')
  .action(async (specs: string[], opts) => (await import('./commands/validate.ts')).validate(specs, opts));

const plan = command('plan', 'Expand a spec into cells: which run, which are unsupported and why.')
  .argument('<spec>', 'spec file');
addFormat(addShared(plan, ['only', 'timing']), ['table', 'json'], 'output format', 'print the plan as JSON (same as --format json)')
  .option('--sizes', "ask pip what the environments still to build would download: starts the spec's interpreter (never one inside the spec's tree) as env build would, needs the package index; cached, later plans show it without asking")
  .addOption(new Option('--no-sizes', 'the default: plan starts no program (kept for scripts that pass it)').hideHelp())
  .action(async (spec: string, opts) => (await import('./commands/plan.ts')).plan(spec, opts));

const report = command('report', "Render a results file (benchgrid's or the seed's): terminal grid, markdown page, self-contained HTML, JSON, or a tidy CSV or JSON Lines table (one row per cell).")
  .argument('<results>', 'results.json, or a run directory')
  .option('--spec <spec>', "spec whose labels, order and page to use (the page rows come from its 'page' section)");
addFormat(report, ['table', 'markdown', 'html', 'json', 'csv', 'jsonl'], 'output format (csv, jsonl: one row per cell, docs/report.md#tidy-exports)').option('--out <file>', 'write to this file instead of stdout')
  .action(async (results: string, opts) => (await import('./commands/report.ts')).report(results, opts));

const diff = command('diff', 'Show what a spec change does to the matrix: cells added, removed, flipped, and to re-measure.')
  .argument('[specs...]', 'OLD.yaml NEW.yaml; with --base, the specs to compare (default: every spec changed since REV)')
  .option('--base <rev>', 'compare each spec with its version at git revision REV (read from git, nothing checked out)');
addFormat(diff, ['table', 'markdown', 'json', 'terminal'], "output format ('terminal' is an old name of table)")
  .option('--exit-code', `exit ${EXIT.differenceFound} when anything changed, like git diff --exit-code`)
  .action(async (specs: string[], opts) => (await import('./commands/diff.ts')).diff(specs, opts));

const run = command('run', 'Run every planned cell of a spec in fresh Python processes; write results.json and reports.')
  .argument('[spec]', 'spec file (not needed with --resume)')
  .option('--out <dir>', 'results directory (default results/<spec>/<timestamp>)')
  .option('--resume <dir>', 'complete an interrupted run: only what is missing runs')
  .option('--allow-downloads', 'download hub weights (hf:...) the local Hugging Face cache lacks, before the first cell; without it benchgrid never downloads');
addShared(run, ['only', 'device', 'timing'])
  .option('--python <path>', 'run every environment with this interpreter instead of cached virtual environments')
  .option('--changed-since <rev>', 'only the cells a spec change since git revision REV invalidated')
  .option('--compare-last', "once the run has finished: compare's table of it against the spec's previous complete run, on stderr (docs/compare.md)");
addShared(run, ['probe'])
  .option('--tool-source <tool=source>', 'install TOOL (a tool id or package) from SOURCE for this run: a directory, git:REV (the current directory\'s repository) or git:REPO@REV (repeatable; docs/ci.md)', repeatable);
addShared(run, ['jobs', 'start', 'schedule', 'seed'])
  .addOption(new Option('--executor <name>', 'where cell processes run: here, or as a Slurm array job').choices(['local', 'slurm']).default('local'))
  .option('--partition <name>', 'slurm: partition (default: the spec\'s slurm.partition, else the cluster\'s default)')
  .option('--gpus-per-task <n>', 'slurm: GPUs per array task (default 1 for a cuda spec)', boundedInt('--gpus-per-task', 0, 64))
  .option('--cpus-per-task <n>', 'slurm: CPUs per array task (default: the protocol\'s threads)', boundedInt('--cpus-per-task', 1, 1024))
  .option('--time-limit <time>', 'slurm: time limit per task, e.g. 2:00:00')
  .option('--sbatch-arg <arg>', 'slurm: one extra sbatch argument, e.g. --sbatch-arg=--qos=short (repeatable)', repeatable)
  .option('--shared-dir <dir>', 'slurm: directory seen by the login and compute nodes (default results/<spec>/slurm-<timestamp>)')
  .option('--shards <n>', 'slurm: array tasks, each running a share of the cells (default 1)', boundedInt('--shards', 1, 10_000))
  .option('--no-wait', 'slurm: submit and return; finish later with `benchgrid ingest SHARED_DIR`');
addFormat(run, ['table', 'json'], 'summary format: table on stderr, or json on stdout', 'print the summary as JSON on stdout (same as --format json)')
  .action(async (spec: string | undefined, opts) => (await import('./commands/run.ts')).run(spec, opts));

const benchChange = command('bench-change', "A tool's cells for two versions of its code (base and head) in one interleaved run, then compare's verdict of head against base (docs/ci.md).")
  .argument('[spec]', 'spec file (not needed with --resume)')
  .option('--tool <name>', 'the tool id, or the package its tools use (e.g. torchlens: every torchlens tool of the spec)')
  .option('--base <source>', "the code before: git:REV (the current directory's repository), git:REPO@REV, a directory, or pinned (the spec's own release)")
  .option('--head <source>', 'the code after, in the same forms', '.')
  .option('--only <globs>', "only the tool's cells whose id (as the spec names them) matches one of these globs")
  .option('--out <dir>', 'run directory (default results/<spec>/change-<timestamp>)')
  .option('--resume <dir>', 'complete an interrupted bench-change run, then compare');
addShared(benchChange, ['probe', 'timing', 'jobs', 'start', 'seed'], { processes: 'processes per cell and side (override, recorded in the results)' })
  .option('--threshold <pct>', THRESHOLD_HELP)
  .addOption(new Option('--mode <mode>', "which rule decides a label: ratio (each cell relative to its group's raw cell) or absolute").choices(['ratio', 'absolute']).default('ratio'))
  .option('--fail-on-slower <pct>', `exit ${EXIT.differenceFound} when a cell, or the tool over its cells, is significantly slower by more than this percentage`)
  .option('--only-changed', 'show only cells whose speed label, status or exactness changed')
  .addOption(new Option('--sort <order>', 'order of the cells').choices(['file', 'change', 'id']).default('file'));
addFormat(benchChange, ['table', 'markdown', 'json'], 'output format (markdown: a PR comment, also written to the run directory as change.md)')
  .action(async (spec: string | undefined, opts) => (await import('./commands/bench-change.ts')).benchChange(spec, opts));

const bisect = command('bisect', "The commit that made a tool slower: binary search over its first-parent line from --good to --bad, each step a bench-change run against good (docs/ci.md, Bisect).")
  .argument('<spec>', 'spec file')
  .option('--tool <name>', 'the tool id, or the package its tools use')
  .option('--good <rev>', 'a revision known not slower (an ancestor of --bad on its first-parent line)')
  .option('--bad <rev>', 'a revision known slower')
  .option('--repo <dir>', "the tool's git checkout (its package's directory; default: the current directory)")
  .option('--only <globs>', "only the tool's cells whose id (as the spec names them) matches one of these globs")
  .option('--out <dir>', 'where the steps\' runs and bisect.json go (default results/<spec>/bisect-<timestamp>)');
addShared(bisect, ['probe', 'timing', 'jobs', 'start', 'seed'], { processes: 'processes per cell and side at each step (override, recorded in the results)' })
  .option('--threshold <pct>', THRESHOLD_HELP)
  .addOption(new Option('--mode <mode>', "which rule decides a label: ratio (each cell relative to its group's raw cell) or absolute").choices(['ratio', 'absolute']).default('ratio'))
  .option('--fail-on-slower <pct>', 'a step is slower when a cell or the tool is significantly slower by more than this percentage (bench-change\'s rule; default 0)');
addFormat(bisect, ['table', 'json'], 'output format (the report is also written as bisect.json)')
  .action(async (spec: string, opts) => (await import('./commands/bisect.ts')).bisect(spec, opts));

const exportCommand = command('export', 'Write a self-contained bundle (requests, harness, runners, requirements, driver.py) that runs with Python alone.')
  .argument('<spec>', 'spec file')
  .requiredOption('--out <dir>', 'bundle directory (must be new or empty)');
addShared(exportCommand, ['only'])
  .option('--shard <i/n>', 'only shard I of N (cells split round-robin; a cell\'s processes stay together)');
addShared(exportCommand, ['device', 'timing', 'schedule', 'seed']);
addFormat(exportCommand, ['table', 'json'], 'summary format', 'print a JSON summary on stdout (same as --format json)')
  .action(async (spec: string, opts) => (await import('./commands/export.ts')).exportCommand(spec, opts));

const ingest = command('ingest', 'Validate and merge bundles run by their drivers (or a Slurm submission) into one results.json with reports.')
  .argument('<dirs...>', 'bundle directories (the shards of one export), or one Slurm shared directory')
  .option('--out <dir>', 'results directory (default results/<spec>/<timestamp>; for Slurm, the shared directory)')
  .option('--partial', 'accept processes that never ran; the results are marked partial');
addFormat(ingest, ['table', 'json'], 'summary format', 'print a JSON summary on stdout (same as --format json)')
  .action(async (dirs: string[], opts) => (await import('./commands/ingest.ts')).ingest(dirs, opts));

command('history', 'An offline site of every cell over runs and tool releases, with the regressions and improvements found (docs/versions.md).')
  .argument('<results-dir...>', 'run directories, results/<spec>/ directories, or results/')
  .requiredOption('--out <dir>', 'where to write index.html and the runs\' reports')
  .option('--threshold <pct>', `compare's ${THRESHOLD_HELP}`)
  .action(async (dirs: string[], opts) => (await import('./commands/history.ts')).history(dirs, opts));

const env = command('env', 'The Python environments of specs: list them with their disk cost, build the missing ones, lock them (SPEC.lock.json), or prune the cache.')
  .addArgument(new Argument('<action>', 'list, build, lock or prune').choices(['list', 'build', 'lock', 'prune']))
  .argument('[spec...]', 'spec files (prune: remove cached environments these do not use)');
addFormat(env, ['table', 'json'], 'output format (list)', 'print as JSON (list; same as --format json)')
  .option('--older-than <days>', 'prune: only environments built more than DAYS days ago')
  .option('--yes', 'prune: remove them (default: only print what would be removed)')
  .action(async (action: 'list' | 'build' | 'lock' | 'prune', specs: string[], opts) => {
    if (action !== 'prune' && specs.length === 0) program.error(`error: env ${action} needs at least one spec file`, { exitCode: 2 });
    return (await import('./commands/env.ts')).env(action, specs, opts);
  });

const compare = command('compare', 'Compare two results files cell by cell: speed labels, status and exactness changes, environment differences.')
  .argument('[before]', 'results file (or run directory) of the baseline run (benchgrid or the seed layout)')
  .argument('[after]', 'results file (or run directory) of the run to judge')
  .option('--last <spec>', "instead of two files: the spec's two newest complete runs in results/<name>/ (a spec file, or its name; docs/compare.md)");
addFormat(compare, ['table', 'markdown', 'json'], 'output format (markdown: ready to paste as a PR comment)')
  .option('--only-changed', 'show only cells whose speed label, status or exactness changed')
  .addOption(new Option('--sort <order>', 'order of the cells: as in the files, by change (largest slowdown first), or by id').choices(['file', 'change', 'id']).default('file'))
  .option('--threshold <pct>', THRESHOLD_HELP)
  .addOption(new Option('--mode <mode>', 'which rule decides a label: ratio (each cell relative to its group\'s raw cell in the same run; absolute where it cannot) or absolute (own times, threshold widened by the run shift)').choices(['ratio', 'absolute']).default('ratio'))
  .option('--strict-env', 'refuse to compare (exit 2) when the environments differ')
  .option('--fail-on-slower <pct>', `exit ${EXIT.differenceFound} when a cell, or a tool over its cells, is significantly slower by more than this percentage`)
  .option('--out <file>', 'write the comparison to a file instead of stdout')
  .action(async (before: string | undefined, after: string | undefined, opts) => (await import('./commands/compare.ts')).compare(before, after, opts));

const tools = command('tools', 'Every adapter benchgrid can run (built in, in runners/, and in specs/runners/ of the project in the current directory): its runner, library, the releases installed in the cached environments, and the contracts it implements.')
  .argument('[spec]', "a spec: adds its own runners, the releases its environments pin, and which of its tools use each adapter");
addFormat(tools, ['table', 'json'], 'output format', 'print the adapters as JSON (same as --format json)')
  .action(async (spec: string | undefined, opts) => (await import('./commands/tools.ts')).tools(spec, opts));

const system = command('system', 'What makes this machine noisy for timing: load, busy processes, CPU frequency governor and boost, cores, memory, steal time.');
addFormat(system, ['table', 'json'], 'output format', 'print the facts and checks as JSON (same as --format json)')
  .action(async (opts) => (await import('./commands/system.ts')).system(opts));

const ratios = command('ratios', 'Each tool\'s median over the base tool\'s (raw) within each run, runs side by side: compares machines that times cannot (docs/gpu.md).')
  .argument('<results...>', 'results files (benchgrid or the seed layout), first the baseline')
  .option('--label <label>', 'a column title per results file, in order (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
  .option('--base <tool>', 'the tool every ratio is taken to', 'raw')
  .option('--tools <names>', 'comma-separated tools, a trailing * matching a prefix, or all (default: hooks,nnsight,tv_fx,tl_*)')
  .option('--tolerance <pct>', 'mark a change of the ratio beyond this percentage (default: 10)');
addFormat(ratios, ['table', 'markdown', 'json'], 'output format')
  .option('--out <file>', 'write the table to a file instead of stdout')
  .action(async (files: string[], opts) => (await import('./commands/ratios.ts')).ratios(files, opts));

let droppingClosedPipe = false;

/**
 * A reader that closes stdout early (`benchgrid run --help | head`, quitting a pager) gets no more output,
 * and the command goes on: a run keeps measuring and writing its files. Without this, Node's unhandled EPIPE
 * ended the process with a stack trace.
 */
function dropOutputToClosedPipe(): void {
  // Installed once per process (main runs many times in tests). Not "when stdout has no error listener":
  // under tsx's loader (a checkout whose dist/ is stale) stdout has a pipe's own listener, which removes
  // itself on the first error and re-emits it, unhandled.
  if (droppingClosedPipe) return;
  droppingClosedPipe = true;
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
  if (json) {
    process.stdout.write = ((...args: Parameters<typeof write>) => {
      wrote = true;
      return write(...args);
    }) as typeof process.stdout.write;
  }
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
  const refused = writeFailure(error);
  if (refused) return exitCodeOf(refused);
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; usage errors were already printed by commander.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const stack = error instanceof Error ? error.stack ?? error.message : String(error);
  process.stderr.write(`benchgrid: internal error (a bug in benchgrid, please report it with the command you ran):\n${stack}\n`);
  return EXIT.internal;
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
