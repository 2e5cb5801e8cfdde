// The examples under each command's --help: what a new user types first.

/** Example command lines per command, each with what it does. */
export const EXAMPLES: Record<string, [string, string][]> = {
  benchgrid: [
    ['benchgrid init --model torchvision:resnet18', 'write a starter spec (specs/resnet18_starter.yaml)'],
    ['benchgrid validate specs/*.yaml', 'check specs'],
    ['benchgrid run specs/resnet18_cpu.yaml', 'measure a spec; ends with a summary and the report path'],
    ['benchgrid compare results/a results/b', 'compare two runs'],
  ],
  init: [
    ['benchgrid init', 'ResNet-18 on the CPU, written to specs/resnet18_starter.yaml'],
    [
      'benchgrid init specs/vgg.yaml --model torchvision:vgg11 --site features.10',
      'another torchvision model and site',
    ],
    [
      'benchgrid init --model hf:pythia',
      "Pythia-160M's shape, random weights (nothing downloaded); also hf:gpt2, hf:smollm, hf:qwen2",
    ],
    [
      'benchgrid init --weights my-model/',
      'a save_pretrained directory: its architecture, its weights and, with its tokenizer, prompts',
    ],
    [
      'benchgrid init --model python:models/mixer.py:build --site mixer.1.tokens --inputs image:2x3x32x32',
      'your own model, in a file of yours',
    ],
    [
      'benchgrid init --tool mytool --library mytool --spec specs/resnet18_starter.yaml',
      'a runner for a new tool in specs/runners/mytool (docs/adding-a-tool.md)',
    ],
  ],
  validate: [
    ['benchgrid validate specs/resnet18_cpu.yaml', 'diagnostics as file:line:col on stderr'],
    ['benchgrid validate specs/*.yaml --json', 'the same as JSON (GitHub annotations too when GITHUB_ACTIONS=true)'],
  ],
  plan: [
    ['benchgrid plan specs/resnet18_cpu.yaml', 'the matrix: which cells run, which do not and why'],
    ["benchgrid plan specs/resnet18_cpu.yaml --only 'A/*/hooks/*' --json", 'some cells, as JSON'],
  ],
  run: [
    ['benchgrid run specs/resnet18_cpu.yaml', 'every planned cell; results in results/resnet18_cpu/<time>/'],
    [
      "benchgrid run specs/resnet18_cpu.yaml --only 'A/single_module_output/*/*' --processes 1",
      'a quick look at one row',
    ],
    ['benchgrid run --resume results/resnet18_cpu/2026-01-01T00-00-00', 'finish an interrupted run'],
    [
      'benchgrid run specs/resnet18_cpu.yaml --tool-source torchlens=../torchlens',
      "torchlens from a checkout instead of the spec's release",
    ],
    ['benchgrid run specs/resnet18_cpu.yaml --compare-last', 'then this run against the previous one of the spec'],
  ],
  'bench-change': [
    [
      'benchgrid bench-change specs/resnet18_cpu.yaml --tool torchlens --base git:main --head .',
      "this checkout's torchlens against main's, in one run (run from the checkout)",
    ],
    [
      'benchgrid bench-change specs/resnet18_cpu.yaml --tool torchlens --base pinned --head ../torchlens',
      'a working tree against the release the spec pins',
    ],
    [
      'benchgrid bench-change SPEC --tool tl_record --base git:v2.36.1 --format markdown --fail-on-slower 5',
      'a PR comment; exit 4 when slower by more than 5%',
    ],
  ],
  bisect: [
    [
      'benchgrid bisect specs/resnet18_cpu.yaml --tool torchlens --good v2.36.0 --bad main',
      'the first commit of main that made torchlens slower (run from the checkout)',
    ],
    [
      "benchgrid bisect SPEC --tool hookkit --good v1.0 --bad HEAD --repo ../hookkit --only 'A/single_module_output/*/*' --json",
      'one row, another checkout, the report as JSON',
    ],
  ],
  report: [
    ['benchgrid report results/resnet18_cpu/2026-01-01T00-00-00', 'the grid of a run directory'],
    ['benchgrid report results.json --spec specs/resnet18_cpu.yaml --format html --out report.html', 'the HTML report'],
    ['benchgrid report results.json --format csv --out cells.csv', 'one row per cell, for pd.read_csv'],
  ],
  compare: [
    ['benchgrid compare results/main results/pr', 'two run directories, as a table'],
    [
      'benchgrid compare main.json pr.json --format markdown --only-changed --fail-on-slower 10',
      'a PR comment; exit 4 on a slowdown',
    ],
    ['benchgrid compare --last specs/resnet18_cpu.yaml', "the spec's two latest complete runs under results/"],
  ],
  diff: [
    ['benchgrid diff specs/old.yaml specs/new.yaml', 'what a spec change does to the matrix'],
    [
      'benchgrid diff --base origin/main --format markdown --exit-code',
      'every spec changed on a branch; exit 4 when any did',
    ],
  ],
  env: [
    ['benchgrid env list specs/*.yaml', 'the cached Python environments and whether they are built'],
    ['benchgrid env build specs/resnet18_cpu.yaml', 'build them now (progress on stderr)'],
    [
      'benchgrid env lock specs/resnet18_cpu.yaml',
      'record every installed version in specs/resnet18_cpu.lock.json; later builds install exactly that',
    ],
    ['benchgrid env prune specs/*.yaml --older-than 30', 'what pruning would remove (add --yes to remove it)'],
  ],
  history: [
    ['benchgrid history results/ --out site', 'every run under results/, as an offline site (site/index.html)'],
  ],
  ratios: [
    [
      'benchgrid ratios laptop/results.json gpu-node/results.json --label laptop --label gpu',
      'ratios to raw, two machines side by side',
    ],
  ],
  tools: [
    ['benchgrid tools', 'every adapter with its library, installed releases and contracts'],
    ['benchgrid tools specs/resnet18_cpu.yaml', "with the spec's pins, its own runners and which tools it declares"],
  ],
  system: [
    ['benchgrid system', 'load, busy processes, governor, boost, memory: what to fix before measuring'],
    ['benchgrid system --json', 'the same as JSON'],
  ],
  export: [['benchgrid export specs/resnet18_gpu.yaml --out bundle --shard 1/4', 'a bundle to run with Python alone']],
  ingest: [['benchgrid ingest bundle-1 bundle-2', 'merge the run bundles into results.json and reports']],
};

/** The `Examples:` block of a command's help. */
export function examples(list: [string, string][]): string {
  const width = Math.max(...list.map(([c]) => c.length));
  const twoLines = list.some(([, what]) => width + what.length + 8 > 100);
  return `\nExamples:\n${list.map(([c, what]) => (twoLines ? `  $ ${c}\n      # ${what}` : `  $ ${c.padEnd(width)}  # ${what}`)).join('\n')}\n`;
}
