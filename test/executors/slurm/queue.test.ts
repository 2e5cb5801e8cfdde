// Reading Slurm's answers: squeue and sacct lines per array task, and each task's state from what is known.
import { describe, expect, it } from 'vitest';
import { settle, type Observation } from '../../../src/executors/slurm/follow.ts';
import { parseSacct, parseSqueue, taskIds } from '../../../src/executors/slurm/queue.ts';

describe('array task ids', () => {
  it('reads single tasks and ranges of this job only, never steps', () => {
    expect(taskIds('12_3', '12')).toEqual([3]);
    expect(taskIds('12_[0-2,5]', '12')).toEqual([0, 1, 2, 5]);
    expect(taskIds('12_[4-6%2]', '12')).toEqual([4, 5, 6]);
    expect(taskIds('13_3', '12')).toEqual([]);
    expect(taskIds('12_3.batch', '12')).toEqual([]);
    expect(taskIds('12', '12')).toEqual([]);
  });
});

describe('squeue', () => {
  it('gives each task its state and reason (None is no reason)', () => {
    const text = '12_0|RUNNING|None\n12_1|PENDING|JobHeldUser\n12_2|CANCELLED|None\n';
    expect([...parseSqueue(text, '12')]).toEqual([
      [0, { state: 'RUNNING', reason: null, exitCode: null }],
      [1, { state: 'PENDING', reason: 'JobHeldUser', exitCode: null }],
      [2, { state: 'CANCELLED', reason: null, exitCode: null }],
    ]);
  });
});

describe('sacct --parsable2', () => {
  it('reads tasks, skips steps, and drops "by UID" from CANCELLED', () => {
    const text = [
      '12_0|COMPLETED|0:0',
      '12_0.batch|COMPLETED|0:0',
      '12_0.extern|COMPLETED|0:0',
      '12_1|FAILED|2:0',
      '12_1.batch|FAILED|2:0',
      '12_2|CANCELLED by 0|0:15',
      '12_[3-4]|PENDING|0:0',
    ].join('\n');
    const tasks = parseSacct(text, '12');
    expect(tasks.get(0)).toEqual({ state: 'COMPLETED', reason: null, exitCode: '0:0' });
    expect(tasks.get(1)).toEqual({ state: 'FAILED', reason: null, exitCode: '2:0' });
    expect(tasks.get(2)).toEqual({ state: 'CANCELLED', reason: null, exitCode: '0:15' });
    expect(tasks.get(4)?.state).toBe('PENDING');
    expect(tasks.size).toBe(5);
  });
});

describe('settling task states', () => {
  const observe = (o: Partial<Observation>): Observation => ({
    squeue: new Map(),
    sacct: null,
    exitFiles: new Map(),
    absent: new Map(),
    ...o,
  });

  it('trusts the queue while a task is in it; a terminal state there is final', () => {
    const states = settle(
      2,
      observe({
        squeue: new Map([
          [0, { state: 'RUNNING', reason: null, exitCode: null }],
          [1, { state: 'CANCELLED', reason: null, exitCode: null }],
        ]),
      }),
    );
    expect(states.map((s) => [s.state, s.final, s.source])).toEqual([
      ['RUNNING', false, 'squeue'],
      ['CANCELLED', true, 'squeue'],
    ]);
  });

  it('asks accounting, then the exit file, for a task that left the queue', () => {
    const states = settle(
      3,
      observe({
        sacct: new Map([[0, { state: 'TIMEOUT', reason: null, exitCode: '0:15' }]]),
        exitFiles: new Map([
          [1, 0],
          [2, 2],
        ]),
        absent: new Map([
          [0, 1],
          [1, 1],
          [2, 1],
        ]),
      }),
    );
    expect(states.map((s) => [s.state, s.exitCode, s.source, s.final])).toEqual([
      ['TIMEOUT', '0:15', 'sacct', true],
      ['COMPLETED', '0:0', 'exit file', true],
      ['FAILED', '2:0', 'exit file', true],
    ]);
  });

  it('calls a task that left the queue with no trace UNKNOWN only after two polls', () => {
    expect(settle(1, observe({ absent: new Map([[0, 1]]) }))[0]).toMatchObject({ final: false });
    expect(settle(1, observe({ absent: new Map([[0, 2]]) }))[0]).toMatchObject({
      state: 'UNKNOWN',
      final: true,
      reason: expect.stringMatching(/left the queue without an exit status/),
    });
  });
});
