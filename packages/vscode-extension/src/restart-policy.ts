/**
 * How often a crashed language server is restarted. Pure, clock injected, so
 * it is unit-tested without timers.
 *
 * The server is restarted after a crash as long as it crashed at most
 * `maxRestarts` times within `windowMs`; one more crash in that window and it
 * stays down until the user runs "svc: Restart language server" (which calls
 * `reset`).
 */
export interface RestartDecision {
  restart: boolean;
  /** Crashes counted inside the window, including this one. */
  crashesInWindow: number;
}

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(
    readonly maxRestarts = 5,
    readonly windowMs = 3 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Record a crash (the connection closed without us asking) and decide. */
  onCrash(): RestartDecision {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    return { restart: this.crashes.length <= this.maxRestarts, crashesInWindow: this.crashes.length };
  }

  /** Forget past crashes (a manual restart, or a new selector). */
  reset(): void {
    this.crashes = [];
  }
}
