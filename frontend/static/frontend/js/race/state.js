// @ts-check
// What a race page knows: the public state from `welcome`, kept current by the race's events
// (docs/protocol.md 4). Only the state; the views read it and draw.

const BEFORE_START = new Set(["joined", "ready"]);
export const FINAL = new Set(["won", "lost", "dnf"]);

export class RaceState {
  constructor() {
    this.game = null; // the public state: status, players, start, started_at, results...
    this.role = null; // "player" or "spectator"
    this.you = null; // this browser's player id
  }

  welcome(message) {
    this.game = message.game;
    this.role = message.role;
    this.you = message.you ?? null;
  }

  /** A spectator's welcome: each racer's 3BV solved ({player id: n}), as the ground has it. */
  solvedFrom(solved) {
    for (const player of this.players) {
      if (solved?.[player.id] != null) player.bbbv_solved = solved[player.id];
    }
  }

  get status() {
    return this.game?.status ?? null;
  }

  get players() {
    return this.game?.players ?? [];
  }

  player(id) {
    return this.players.find((player) => player.id === id) ?? null;
  }

  me() {
    return this.you ? this.player(this.you) : null;
  }

  isPlayer() {
    return this.role === "player" && this.me() !== null;
  }

  /** The server accepts moves from this page now. */
  canMove() {
    return this.status === "running" && this.role === "player" && this.me()?.status === "playing";
  }

  joined({ player }) {
    if (!this.game || this.player(player.id)) return;
    const safeCells = this.game.width * this.game.height - this.game.mines;
    this.players.push({
      id: player.id,
      name: player.name,
      status: "joined",
      revealed: 0,
      safe_cells: safeCells,
      flags: 0,
      clicks: 0,
      time_ms: null,
      is_bot: false,
      bot: player.bot === true, // a declared bot account joining (docs/protocol.md 6.1)
      online: null, // not announced yet: it has just said hello
      drop_at: null,
    });
  }

  /** A `presence` frame: a racer came or went; an offline one is dropped at `drop_at`. */
  presence({ player, online, drop_at: dropAt }) {
    const row = this.player(player);
    if (row) Object.assign(row, { online, drop_at: online ? null : dropAt ?? null });
  }

  /**
   * Take what no frame carries from a fresh public state (GET /api/games/<id>/): the
   * waiting room's ready_deadline, and drop_at of racers still offline here and there.
   */
  refreshed(state) {
    if (!this.game || state.status !== this.status) return;
    if (this.status === "lobby") this.game.ready_deadline = state.ready_deadline ?? null;
    for (const fresh of state.players ?? []) {
      const row = this.player(fresh.id);
      if (row && row.online === false && fresh.online === false) row.drop_at = fresh.drop_at;
    }
  }

  /** Whether a racer is offline as far as this page knows. */
  anyOffline() {
    return this.players.some((player) => player.online === false && player.id !== this.you);
  }

  ready({ player }) {
    const row = this.player(player);
    if (row && row.status === "joined") row.status = "ready";
  }

  left({ player }) {
    if (!this.game) return;
    this.game.players = this.players.filter((row) => row.id !== player);
  }

  countdown({ starts_at: startsAt, start }) {
    if (!this.game || this.status === "running" || this.status === "finished") return;
    Object.assign(this.game, { status: "countdown", starts_at: startsAt, start });
    this.game.ready_deadline = null;
  }

  started({ started_at: startedAt, start }) {
    if (!this.game || this.status === "finished") return;
    Object.assign(this.game, { status: "running", started_at: startedAt, start });
    for (const player of this.players) {
      if (BEFORE_START.has(player.status)) player.status = "playing";
    }
  }

  /** A `cells` or `progress` frame: the mover's counts and status. */
  moved({ player, progress, status }) {
    const row = this.player(player);
    if (!row) return;
    Object.assign(row, progress ?? {});
    if (status) row.status = status;
  }

  finished({ player, status, time_ms: timeMs }) {
    const row = this.player(player);
    if (row) Object.assign(row, { status, time_ms: timeMs });
  }

  /**
   * A `decided` frame (docs/protocol.md 2.2): the ranks are final, though a racer may still play.
   * After game_over (two workers, one moment) it brings nothing new.
   */
  /** @param {import("../core/types.js").DecidedFrame} frame */
  decided({ results, winner, aborted, aborted_because: abortedBecause }) {
    if (!this.game || this.status === "finished") return;
    Object.assign(this.game, { decided: results ?? [], winner: winner ?? null });
    if (aborted) Object.assign(this.game, { aborted, aborted_because: abortedBecause });
    this.game.decided_at ??= new Date().toISOString();
  }

  /** Whether the ranking is final: decided, or the race over. */
  isDecided() {
    return this.status === "finished" || Boolean(this.game?.decided);
  }

  /** The final ranking as far as it is known: game_over's, else decided's, else null. */
  ranking() {
    return this.game?.results ?? this.game?.decided ?? null;
  }

  /** @param {import("../core/types.js").GameOverFrame} frame */
  gameOver({
    results,
    winner,
    seed,
    seed_salt: seedSalt,
    safe_cell: safeCell,
    mine_cells: mineCells,
    aborted,
    aborted_because: abortedBecause,
  }) {
    if (!this.game) return;
    if (aborted) Object.assign(this.game, { aborted, aborted_because: abortedBecause });
    Object.assign(this.game, {
      status: "finished",
      results,
      winner: winner === undefined ? (this.game.winner ?? null) : winner,
      seed,
      seed_salt: seedSalt,
      safe_cell: safeCell,
      mine_cells: mineCells,
    });
    for (const result of results ?? []) {
      const row = this.player(result.player);
      if (row) Object.assign(row, { status: result.status, time_ms: result.time_ms });
    }
  }
}
