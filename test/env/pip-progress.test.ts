// Environment builds show progress: pip's output read line by line into the package and the time elapsed.
import { describe, expect, it } from 'vitest';
import { pipPhase, pipProgress } from '../../src/env/pip-progress.ts';

describe('pipPhase', () => {
  it('names what pip is doing from its lines, and ignores the rest', () => {
    expect(pipPhase('Collecting torch==2.14.1')).toBe('collecting torch==2.14.1');
    expect(
      pipPhase(
        '  Downloading https://files.pythonhosted.org/packages/ab/torch-2.14.1-cp312-none-linux_x86_64.whl (900.1 MB)',
      ),
    ).toBe('downloading torch-2.14.1-cp312-none-linux_x86_64.whl');
    expect(pipPhase('Building wheel for thingsvision (pyproject.toml): started')).toBe(
      'building a wheel for thingsvision',
    );
    expect(pipPhase('Installing collected packages: numpy, torch')).toBe('installing 2 packages (numpy, torch)');
    expect(pipPhase('  Requirement already satisfied: numpy in ./lib')).toBeNull();
  });
});

describe('pipProgress', () => {
  it('logs each new phase with the elapsed time, at most one line per 2 s, across split chunks', () => {
    let t = 0;
    const lines: string[] = [];
    const p = pipProgress(
      'main',
      (l) => lines.push(l),
      () => t,
    );
    p.feed('Collecting tor');
    p.feed('ch==2.14.1\n');
    t = 1000;
    p.feed('Collecting numpy\n'); // within 2 s of the last line: not shown
    t = 65_000;
    p.feed('Installing collected packages: numpy, torch\n');
    p.stop();
    expect(lines).toEqual([
      "environment 'main': collecting torch==2.14.1 (0:00 elapsed)",
      "environment 'main': installing 2 packages (numpy, torch) (1:05 elapsed)",
    ]);
  });
});
