// How a scripted step of the action ends: its outputs to $GITHUB_OUTPUT, a refusal as a GitHub error
// annotation (`::error::`) with benchgrid's exit code for bad input.
import { EXIT, UserError } from '../errors.ts';
import { setOutputs } from './github.ts';
import type { StepEnv } from './action.ts';

/** Runs one step with the process's environment; sets process.exitCode on failure. */
export async function runStep(step: (env: StepEnv) => Promise<Record<string, string>>): Promise<void> {
  try {
    const outputs = await step(process.env);
    setOutputs(process.env.GITHUB_OUTPUT, outputs);
    for (const [k, v] of Object.entries(outputs)) process.stdout.write(`${k}=${v}\n`);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    process.stdout.write(`::error::${error.message.replace(/\r?\n/g, '%0A')}\n`);
    process.exitCode = EXIT.usage;
  }
}
