// @ts-check
// A finished game's move log laid out in time: one track per player, each a sweep that can be
// brought to any moment, or to any move of the log (step by step). Moving forward applies only
// the new moves; moving back replays the track from the start (a few hundred moves at most:
// cheap).
import { Layout, Sweep } from "./engine.js";

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
   * Hold exactly the first `count` of this player's moves. Returns the indices of the cells
   * that changed, or null when the track started over (every cell may have changed).
   */
  seekCount(count) {
    let restarted = false;
    if (count < this.applied) {
      this.reset();
      restarted = true;
    }
    const changed = [];
    while (this.applied < Math.min(count, this.moves.length)) {
      const { action, x, y } = this.moves[this.applied];
      changed.push(...this.sweep.apply(action, x, y));
      this.applied += 1;
    }
    return restarted ? null : changed;
  }

  /** Hold exactly the moves before `ms` (all of them when `all`); as seekCount. */
  seek(ms, all) {
    if (all) return this.seekCount(this.moves.length);
    let count = 0;
    while (count < this.moves.length && this.moves[count].t_ms < ms) count += 1;
    return this.seekCount(count);
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
    // Every move in the order the server accepted them (the log's order): the steps.
    const trackOf = new Map(this.tracks.map((track) => [track.player.id, track]));
    this.moves = moves.map((move) => ({ ...move, track: trackOf.get(move.player) }));
  }

  /**
   * Bring every track to `ms`: the moves made before that moment, or all of them at the end.
   * Returns [track, changed indices or null] pairs.
   */
  seek(ms) {
    const all = ms >= this.duration;
    return this.tracks.map((track) => [track, track.seek(ms, all)]);
  }

  /** Bring every track to the first `count` moves of the log; as seek(). */
  seekMoves(count) {
    const counts = new Map(this.tracks.map((track) => [track, 0]));
    for (const move of this.moves.slice(0, count)) {
      counts.set(move.track, counts.get(move.track) + 1);
    }
    return this.tracks.map((track) => [track, track.seekCount(counts.get(track))]);
  }

  /** How many moves of the log the tracks hold now. */
  get position() {
    return this.tracks.reduce((sum, track) => sum + track.applied, 0);
  }

  /** The moment of the log's `count`-th move (0 before the first). */
  timeOfMove(count) {
    return count > 0 ? this.moves[Math.min(count, this.moves.length) - 1].t_ms : 0;
  }
}
