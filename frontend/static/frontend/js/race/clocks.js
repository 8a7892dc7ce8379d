// @ts-check
// A race's two clocks, both from `started_at` on the server's clock: the race's own (the
// spectator bar) and a racer's (the HUD), which stops at that racer's end, at its exact time
// when it won.
import { GameTimer } from "../core/clock.js";
import { FINAL } from "./state.js";

export class RaceClocks {
  /** onRace(ms) and onRacer(ms) draw the elapsed milliseconds. */
  constructor(clock, { onRace, onRacer }) {
    this.race = new GameTimer(clock, onRace);
    this.racer = new GameTimer(clock, onRacer);
  }

  reset() {
    this.race.reset();
    this.racer.reset();
  }

  /** Put both clocks in the state the race describes. */
  sync(race) {
    const { game } = race;
    const endMs = game.finished_at
      ? Date.parse(game.finished_at) - Date.parse(game.started_at)
      : null;
    syncTimer(this.race, game, null, endMs);
    syncTimer(this.racer, game, race.me(), endMs);
  }
}

function syncTimer(timer, game, player, endMs) {
  if (!game.started_at) return timer.reset();
  if (!timer.isRunning() && timer.startedAtMs === null) timer.run(game.started_at);
  if (player?.status === "won" && player.time_ms !== null) return timer.stop(player.time_ms);
  const over = game.status === "finished" || FINAL.has(player?.status);
  if (over && timer.isRunning()) timer.stop(game.status === "finished" ? endMs : null);
}
