// A finished game's move log laid out in time: one track per player, each a sweep that can be
// brought to any moment. Moving forward applies only the new moves; moving back replays the
// track from the start (a few hundred moves at most: cheap).
import { Layout, Sweep } from "./replay-engine.js";

export class Track {
  constructor(player, moves, layout) {
    this.player = player;
    this.moves = moves;
    this.layout = layout;
    this.lastMoveMs = moves.length ? moves[moves.length - 1].t_ms : 0;
    this.reset();
  }

  reset() {
    this.sweep = new Sweep(this.layout);
    this.applied = 0; // how many of the moves the sweep holds
  }

  /**
   * Hold exactly the moves before `ms` (all of them when `all`). Returns the indices of the
   * cells that changed, or null when the track started over (every cell may have changed).
   */
  seek(ms, all) {
    const due = (move) => all || move.t_ms < ms;
    let restarted = false;
    if (this.applied > 0 && !due(this.moves[this.applied - 1])) {
      this.reset();
      restarted = true;
    }
    const changed = [];
    while (this.applied < this.moves.length && due(this.moves[this.applied])) {
      const { action, x, y } = this.moves[this.applied];
      changed.push(...this.sweep.apply(action, x, y));
      this.applied += 1;
    }
    return restarted ? null : changed;
  }

  get done() {
    return this.applied === this.moves.length;
  }
}

export class Timeline {
  /** game: the public state of a finished game (with mine_cells); moves: its move log. */
  constructor(game, moves) {
    this.layout = new Layout(game.width, game.height, game.mine_cells ?? []);
    const byPlayer = new Map((game.players ?? []).map((player) => [player.id, []]));
    for (const move of moves) {
      if (!byPlayer.has(move.player)) byPlayer.set(move.player, []);
      byPlayer.get(move.player).push(move);
    }
    const players = new Map((game.players ?? []).map((player) => [player.id, player]));
    this.tracks = [...byPlayer].map(([id, list]) => {
      list.sort((a, b) => a.seq - b.seq);
      return new Track(players.get(id) ?? { id, name: id }, list, this.layout);
    });
    this.duration = Math.max(0, ...this.tracks.map((track) => track.lastMoveMs));
  }

  /**
   * Bring every track to `ms`: the moves made before that moment, or all of them at the end.
   * Returns [track, changed indices or null] pairs.
   */
  seek(ms) {
    const all = ms >= this.duration;
    return this.tracks.map((track) => [track, track.seek(ms, all)]);
  }
}
