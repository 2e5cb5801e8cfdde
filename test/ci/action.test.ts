// action.yml cannot run here: its YAML is checked (inputs, steps, what reaches a script and how), the
// example workflow's only permission is pull-requests: write, and the comment when bench-change could not
// finish is checked as the pure function that writes it. The scripted steps run in action-steps.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { codeLine, errorTail, failure, runLink } from '../../src/ci/action.ts';
import { COMMENT_LIMIT, openBlocks } from '../../src/ci/github.ts';
import { ROOT } from '../helpers.ts';
import { action, type Step, step, steps } from './action-fixtures.ts';

const example = fs.readFileSync(path.join(ROOT, 'docs/examples/benchgrid-tool-check.yml'), 'utf8');

describe('action.yml', () => {
  it('is a composite action with the inputs a tool repository sets: tool, spec (or a built-in one), base ref, threshold', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs.tool.required).toBe(true);
    expect(action.inputs.spec.default).toBe('builtin:resnet18_cpu');
    expect(fs.existsSync(path.join(ROOT, 'specs/resnet18_cpu.yaml'))).toBe(true);
    expect(action.inputs['base-ref'].default).toBe('');
    expect(action.inputs.threshold.default).toBe('5');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(action.inputs['github-token'].default).toBe('${{ github.token }}');
    expect(Object.keys(action.outputs)).toEqual(['status', 'markdown']);
  });

  it('prepares, restores the environments by key, measures, comments, then decides, in that order', () => {
    const names = steps.map((s) => s.name ?? s.uses);
    expect(names).toEqual([
      'actions/setup-node@v4',
      'actions/setup-python@v5',
      'Install benchgrid',
      'Prepare',
      'Restore the environments',
      'Measure base and head',
      'Post or update the comment',
      'Verdict',
    ]);
    const cache = step('Restore the environments');
    expect(cache.uses).toBe('actions/cache@v4');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
    expect(cache.with!.key).toBe('${{ steps.prepare.outputs.cache-key }}');
    expect(cache.with!.path).toContain('~/.cache/benchgrid/envs');
    const comment = step('Post or update the comment');
    expect(comment['continue-on-error']).toBe(true);
    expect(comment.if).toBe("inputs.comment == 'true' && github.event_name == 'pull_request'");
  });

  it('passes inputs to its scripts through the environment only, runs scripts of this repository, and gives the token to the comment step alone', () => {
    for (const s of steps.filter((x) => x.run)) {
      expect(s.run, s.name).not.toMatch(/\$\{\{/);
      expect(s.shell, s.name).toBe('bash');
      for (const script of s.run!.matchAll(/\$GITHUB_ACTION_PATH\/([\w./-]+)/g))
        expect(fs.existsSync(path.join(ROOT, script[1])), script[1]).toBe(true);
      const token = Object.values(s.env ?? {}).some((v) => v.includes('github-token') || v.includes('github.token'));
      expect(token, s.name).toBe(s.name === 'Post or update the comment');
    }
  });

  it('has an example workflow whose one permission is pull-requests: write, and docs/ci.md shows it as it is', () => {
    const wf = parse(example);
    expect(wf.permissions).toEqual({ 'pull-requests': 'write' });
    expect(wf.jobs.benchgrid.permissions).toBeUndefined();
    const steps: Step[] = wf.jobs.benchgrid.steps;
    expect(steps[0]).toMatchObject({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } });
    expect(steps[1].uses).toMatch(/\/benchgrid@/);
    expect(Object.keys(steps[1].with!).every((k) => k in action.inputs)).toBe(true);
    expect(fs.readFileSync(path.join(ROOT, 'docs/ci.md'), 'utf8')).toContain(example.trim());
  });
});

describe('the comment when bench-change could not finish', () => {
  const MARKER = '<!-- benchgrid:bench-change tool=hookkit spec=sourced -->';
  const LINK = ' (https://github.com/o/tool/actions/runs/42)';
  /** The lines inside the comment's code block, checking that no line but its fence and closing fence could end it. */
  const block = (comment: string) => {
    const lines = comment.split('\n');
    const open = lines.indexOf('```');
    const close = lines.indexOf('```', open + 1);
    expect(lines.filter((l) => /^\s{0,3}`{3,}/.test(l))).toEqual(['```', '```']);
    return lines.slice(open + 1, close);
  };

  it('shows the last lines of the error output, says where the whole of it is, and is well-formed', () => {
    const stderr = Array.from({ length: 40 }, (_, i) => `error line ${i}`).join('\n');
    const c = failure(MARKER, 'hookkit', 3, stderr, LINK);
    expect(c.split('\n')[0]).toBe(MARKER);
    expect(c).toContain('## benchgrid bench-change: `hookkit` could not be measured (exit 3)');
    expect(c).toContain(
      'the whole of it is in the job log, step "Measure base and head" (https://github.com/o/tool/actions/runs/42):',
    );
    expect(block(c)).toEqual(Array.from({ length: 25 }, (_, i) => `error line ${i + 15}`));
    expect(openBlocks(c)).toEqual({ fence: null, details: 0 });
  });

  it('keeps a 70,000-character line within the limit: its end, after …', () => {
    const stderr = `first\n${'a'.repeat(69_990)}THE END`;
    const c = failure(MARKER, 'hookkit', 3, stderr, LINK);
    expect(c.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(c.length).toBeGreaterThan(COMMENT_LIMIT - 10);
    expect(block(c)).toHaveLength(1);
    expect(block(c)[0]).toMatch(/^…a+THE END$/);
  });

  it('measures after escaping: 70,000 control characters (six characters each once escaped) still fit, never cut inside an escape', () => {
    const stderr = `${'\u001b[31m'.repeat(14_000)}\u202eevil`;
    const c = failure(MARKER, 'hookkit', 3, stderr, LINK);
    expect(c.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(c.length).toBeGreaterThan(COMMENT_LIMIT - 20);
    expect(/[\u001b\u202e]/.test(c)).toBe(false);
    expect(/^…(\\u001b\[31m)+\\u202eevil$/.test(block(c)[0])).toBe(true);
  });

  it('keeps every line of the block inside it, whatever backticks the output holds', () => {
    const stderr = ['```', '````', '   ```js', '``` not closed', 'x```y', '~~~', '`code`'].join('\n');
    const c = failure(MARKER, 'hookkit', 2, stderr);
    expect(block(c)).toEqual(["'''", "'''`", "   '''js", "''' not closed", "x'''y", '~~~', '`code`']);
    expect(codeLine('``````')).toBe("''''''");
  });

  it('keeps whole last lines that fit and drops the earlier ones; of a last line too long, its end, never half a character', () => {
    expect(errorTail('one\ntwo\nthree', 10)).toEqual(['two', 'three']);
    expect(errorTail('one\ntwo\nthree', 4)).toEqual(['…ee']);
    expect(errorTail('one\r\ntwo\n\n', 100)).toEqual(['one', 'two']);
    expect(errorTail('😀'.repeat(10), 7)).toEqual(['…😀😀']);
  });

  it("names the run's page only from GitHub's own variables, each as GitHub writes it", () => {
    const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/tool', GITHUB_RUN_ID: '42' };
    expect(runLink(env)).toBe(LINK);
    expect(runLink({ ...env, GITHUB_RUN_ID: '42) [x](https://evil' })).toBe('');
    expect(runLink({ ...env, GITHUB_SERVER_URL: 'javascript:alert(1)' })).toBe('');
    expect(runLink({})).toBe('');
  });
});
