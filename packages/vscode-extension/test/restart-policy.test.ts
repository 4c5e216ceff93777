import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../src/restart-policy';

describe('restart after a crash', () => {
  it('restarts up to the limit within the window, then gives up', () => {
    let now = 0;
    const policy = new RestartPolicy(3, 60_000, () => now);
    const decisions = [0, 1, 2, 3].map(() => {
      now += 1_000;
      return policy.onCrash();
    });
    expect(decisions.map((d) => d.restart)).toEqual([true, true, true, false]);
    expect(decisions[3]!.crashesInWindow).toBe(4);
  });

  it('forgets crashes older than the window', () => {
    let now = 0;
    const policy = new RestartPolicy(2, 60_000, () => now);
    policy.onCrash();
    policy.onCrash();
    now = 61_000;
    expect(policy.onCrash()).toEqual({ restart: true, crashesInWindow: 1 });
  });

  it('starts over after a manual restart', () => {
    const policy = new RestartPolicy(1, 60_000, () => 0);
    policy.onCrash();
    expect(policy.onCrash().restart).toBe(false);
    policy.reset();
    expect(policy.onCrash().restart).toBe(true);
  });

  it('defaults to 5 restarts in 3 minutes', () => {
    const policy = new RestartPolicy();
    expect(policy.maxRestarts).toBe(5);
    expect(policy.windowMs).toBe(180_000);
  });
});
