// `benchgrid init`: its options; the implementation is src/commands/init.ts.
import { Option } from 'commander';
import type { InitOptions } from '../commands/init.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'init',
  'Write a starter spec for a torchvision, Hugging Face or own model: it validates and runs as written.',
  {
    run: async (file: string | undefined, opts: InitOptions) => (await import('../commands/init.ts')).init(file, opts),
    declare: (command) =>
      command
        .argument(
          '[file]',
          'where to write it (default specs/<model>_starter.yaml; the current directory when a file it names lies outside specs/)',
        )
        .option(
          '--model <model>',
          'torchvision:<name> (default torchvision:resnet18); hf:gpt2, hf:pythia, hf:smollm (realistic sizes, random weights) or hf:<model_type> (e.g. hf:qwen2); hf:ORG/NAME (weights from the local Hugging Face cache); python:FILE.py:FUNCTION (your own model)',
        )
        .option(
          '--weights <path>',
          'real weights: a save_pretrained directory (the model and, with a tokenizer there, prompts come from it) or a state_dict file for a torchvision or python model',
        )
        .option(
          '--inputs <inputs>',
          "a vision or own model's inputs: image:NxCxHxW (default image:1x3x224x224), tokens:BATCHxLENGTH:VOCAB, or builder (your function returns (model, inputs))",
        )
        .option(
          '--site <module>',
          'module whose output the contracts read (default: layer2 for ResNets, the middle block for language models; needed for other models)',
        )
        .addOption(new Option('--device <device>', 'device of the spec').choices(['cpu', 'cuda']).default('cpu'))
        .option('--name <name>', "the spec's name (default from the file name)")
        .option('--force', 'overwrite an existing file')
        .option(
          '--tool <name>',
          "instead of a spec: write a runner for a new tool in the spec's own runners directory (specs/runners/NAME), with the lines that declare it (docs/adding-a-tool.md)",
        )
        .option(
          '--library <dist>',
          '--tool: the PyPI distribution the adapter imports (its version is recorded; its absence makes cells unsupported)',
        )
        .option('--spec <spec>', '--tool: the spec the tool is for; the runner goes into runners/ beside it'),
  },
);
