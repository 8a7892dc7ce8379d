// @ts-check
// The game clock follows the server's: every `welcome` and `started` carries the server's
// `now`, and the difference to the local clock at receipt corrects the elapsed time.
//
// A frame is never early, only late: each sample (server `now` - local time at receipt) is the
// true offset lowered by that frame's time on the way. So the clock keeps the largest sample,
// and one frame held up on the way (a busy worker, a slow proxy, a reconnection on a bad
// network) does not set it behind. The best sample is compared with a new one only as far as
// the local clock ran steadily in between:
// - a step of the system clock (set at wake-up or by hand) shows as Date.now() moving against
//   performance.now(), and is taken off the best sample. A tab or a machine asleep may show so
//   too (the monotonic clock can stand still while the wall clock goes on): that only lowers
//   the best, and the next sample takes its place.
// - the two clocks' rates differ a little: the best loses DRIFT per millisecond of its age, so
//   a fresh sample wins over an old one and a long-open page does not run ahead.
// No reset when the socket reconnects: a gap in itself changes nothing between the two clocks
// (what a long one can bring, a sleep or a clock set, is caught above), and the welcome of a
// reconnection is the frame most likely to be late.

const DRIFT = 1e-4; // 100 ppm: more than a quartz clock is off, even one NTP does not keep

export class ServerClock {
  constructor() {
    this.offsetMs = 0;
    this.syncedAt = null; // { wallMs, monoMs } of the last sample, once there is one
  }

  /** Learn the offset from a server timestamp (ISO-8601 UTC) received just now. */
  sync(serverNow) {
    const serverMs = Date.parse(serverNow);
    if (!Number.isFinite(serverMs)) return;
    const wallMs = Date.now();
    const monoMs = performance.now();
    let offsetMs = serverMs - wallMs;
    if (this.syncedAt) {
      const agedMs = monoMs - this.syncedAt.monoMs;
      const steppedMs = wallMs - this.syncedAt.wallMs - agedMs;
      offsetMs = Math.max(offsetMs, this.offsetMs - steppedMs - agedMs * DRIFT);
    }
    this.offsetMs = offsetMs;
    this.syncedAt = { wallMs, monoMs };
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
