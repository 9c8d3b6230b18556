import { describe, expect, it } from 'vitest';
import { buildFileProblem, policyBody, versionProblem } from './policy.ts';

describe('licence policy form', () => {
  it('turns the form into the API body, "any preset" into null', () => {
    expect(policyBody({ maxActivations: '3', binding: '' })).toEqual({
      body: { maxActivations: 3, binding: null },
      problems: null,
    });
    expect(policyBody({ maxActivations: ' 5 ', binding: 'device' }).body).toEqual({
      maxActivations: 5,
      binding: 'device',
    });
    for (const bad of ['0', '101', '2.5', 'three', ''])
      expect(policyBody({ maxActivations: bad, binding: '' }).problems?.maxActivations).toMatch(
        /from 1 to 100/,
      );
  });

  it('checks build versions and files before uploading', () => {
    expect(versionProblem('1.2.0')).toBeNull();
    expect(versionProblem('3.0.0-beta.2')).toBeNull();
    expect(versionProblem('1.0 final')).toMatch(/version/);
    expect(buildFileProblem({ name: 'bot.zip', size: 10 })).toBeNull();
    expect(buildFileProblem({ name: 'bot.pdf', size: 10 })).toMatch(/ZIP/);
    expect(buildFileProblem({ name: '../bot.zip', size: 10 })).toMatch(/plain file name/);
    expect(buildFileProblem({ name: 'bot.zip', size: 101 * 1024 * 1024 })).toMatch(/100 MB/);
  });
});
