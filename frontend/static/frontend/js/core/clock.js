// The game clock follows the server's: every `welcome` and `started` carries the server's
// `now`, and the difference to the local clock at receipt corrects the elapsed time.

export class ServerClock {
  constructor() {
    this.offsetMs = 0;
  }

  /** Learn the offset from a server timestamp (ISO-8601 UTC) received just now. */
  sync(serverNow) {
    const serverMs = Date.parse(serverNow);
    if (Number.isFinite(serverMs)) this.offsetMs = serverMs - Date.now();
  }

  /** The server's current time in epoch milliseconds, as best known here. */
  now() {
    return Date.now() + this.offsetMs;
  }
}

/** Elapsed-time display: runs from a server start time, or is frozen at a value. */
export class GameTimer {
  constructor(clock, onChange) {
    this.clock = clock;
    this.onChange = onChange; // called with elapsed milliseconds
    this.startedAtMs = null;
    this.interval = null;
    this.shownSeconds = null;
  }

  /** Run from `startedAt` (ISO-8601 string) on. */
  run(startedAt) {
    this.startedAtMs = Date.parse(startedAt);
    clearInterval(this.interval);
    this.interval = setInterval(() => this.tick(), 100);
    this.tick();
  }

  /** Stop and show `elapsedMs`; with null, freeze at the current elapsed time. */
  stop(elapsedMs = null) {
    clearInterval(this.interval);
    this.interval = null;
    const value = elapsedMs ?? this.elapsed();
    this.shownSeconds = null;
    this.onChange(value);
  }

  /** Stop and show 0: no clock yet. */
  reset() {
    this.startedAtMs = null;
    this.stop(0);
  }

  isRunning() {
    return this.interval !== null;
  }

  elapsed() {
    return this.startedAtMs === null ? 0 : Math.max(0, this.clock.now() - this.startedAtMs);
  }

  tick() {
    const elapsed = this.elapsed();
    const seconds = Math.floor(elapsed / 1000);
    if (seconds === this.shownSeconds) return;
    this.shownSeconds = seconds;
    this.onChange(elapsed);
  }
}
