// @ts-check
// One WebSocket session with a game, for the solo and the race page alike. It says hello as
// whoever this browser may be there (the stored resume token, else the nickname, or a
// spectator when asked to watch), keeps the token, follows the server's clock, and when the
// server refuses the hello it retries as something the server accepts: a stale token joins by
// name, a refused or taken name makes the player choose another (name-prompt.js), a started or
// full game is watched instead.
//
// It also keeps the page in step when an event was lost on the way (a worker killed between a
// commit and its publish): a move whose `seq` skips one of that player's, or a countdown whose
// `started` never comes, makes it say hello again, and the new `welcome` is the whole truth.
// A move it already has (a repeat from the server's outbox) is dropped.
import { ServerClock } from "./clock.js";
import { askForName } from "./name-prompt.js";
import { GameSocket, gameSocketUrl } from "./socket.js";
import { getNickname, getToken, setToken } from "./storage.js";

export class GameSession {
  /**
   * handlers:
   *   onMessage(message): every frame from the server, `welcome` included (after the session
   *     took its role and token); the error answering a refused hello is not passed on.
   *   onStatus("connecting" | "open" | "reconnecting" | "closed")
   *   onFallback(code, hello): the hello was refused with `code`; retrying as `hello`.
   *   onRefused(error): even watching was refused; the session gives up.
   */
  constructor(gameId, { watch = false, ...handlers }) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.clock = new ServerClock();
    this.role = null;
    this.you = null;
    // A spectator asks for batches: at most a few frames a second (docs/protocol.md 4).
    /** @type {{role: string, batch?: boolean, token?: string, name?: string} | null} */
    this.hello = watch ? { role: "spectator", batch: true } : null; // null: decided on open
    this.helloId = null;
    this.seqs = {}; // player id -> the last move seq this page has of that player
    this.startWatch = null;
    this.socket = new GameSocket(gameSocketUrl(gameId, watch), {
      onOpen: () => this.sayHello(),
      onMessage: (message) => this.receive(message),
      onStatus: (status) => this.handlers.onStatus?.(status),
    });
  }

  connect() {
    this.socket.connect();
  }

  /** Send a frame; returns its id, or null when not connected. */
  send(message) {
    return this.socket.send(message);
  }

  close() {
    this.socket.close();
  }

  sayHello() {
    if (!this.hello) {
      const token = getToken(this.gameId);
      this.hello = token ? { role: "player", token } : { role: "player", name: getNickname() };
    }
    this.helloId = this.socket.send({ type: "hello", ...this.hello });
  }

  /** @param {import("./types.js").GameFrame} message */
  receive(message) {
    if (message.type === "batch") {
      // A spectator's frame holding several messages, in order (docs/protocol.md 4).
      for (const inner of message.messages ?? []) this.receive(inner);
      return;
    }
    if (message.type === "cells" || message.type === "progress") {
      const last = this.seqs[message.player] ?? 0;
      if (message.seq <= last) return; // a repeat: already shown
      if (message.seq > last + 1) {
        this.resync(); // a move of this player never arrived
        return;
      }
      this.seqs[message.player] = message.seq;
    }
    if (message.type === "welcome") this.seqs = { ...(message.seqs ?? {}) };
    this.watchStart(message);
    if (message.type === "welcome") {
      if (message.now) this.clock.sync(message.now);
      this.socket.markHealthy();
      this.role = message.role;
      this.you = message.you ?? null;
      if (message.token) {
        setToken(this.gameId, message.token);
        this.hello = { role: "player", token: message.token }; // reconnections resume
      } else {
        this.hello =
          message.role === "spectator" ? { role: "spectator", batch: true } : { role: message.role };
      }
    } else if (message.type === "started" && message.now) {
      this.clock.sync(message.now);
    } else if (message.type === "error" && message.re != null && message.re === this.helloId) {
      this.helloRefused(message);
      return;
    }
    this.handlers.onMessage(message);
  }

  /** Say hello again on a fresh socket: the next welcome replaces what the page knows. */
  resync() {
    clearTimeout(this.startWatch);
    this.socket.reopen();
  }

  /** A countdown's `started` should follow its end; if it has not 2 s later, re-sync. */
  watchStart(message) {
    let startsAt = null;
    if (message.type === "countdown") startsAt = message.starts_at;
    if (message.type === "welcome" && message.game?.status === "countdown") {
      startsAt = message.game.starts_at;
    }
    if (message.type === "started" || message.type === "game_over") clearTimeout(this.startWatch);
    if (!startsAt) return;
    clearTimeout(this.startWatch);
    const wait = Date.parse(startsAt) - this.clock.now() + 2000;
    this.startWatch = setTimeout(() => this.resync(), Math.max(wait, 0));
  }

  /** Forget this game's token (the player left it): the next hello joins afresh. */
  forgetToken() {
    setToken(this.gameId, null);
    this.hello = null;
  }

  /** Quiet while the player chooses another name (or, in a race, to watch); then hello. */
  async chooseName(error, name) {
    this.socket.close();
    const choice = await askForName(error, name ?? "");
    this.hello = choice.watch ? { role: "spectator" } : { role: "player", name: choice.name };
    this.socket.reopen();
  }

  helloRefused(error) {
    const hello = this.hello ?? {};
    let next = null;
    if (hello.token && error.code === "bad_token") {
      setToken(this.gameId, null); // stale (e.g. the player left the race): join afresh
      next = { role: "player", name: getNickname() };
    } else if (error.code === "bad_name" || error.code === "name_taken") {
      this.chooseName(error, hello.name);
      return;
    } else if (hello.role === "player") {
      next = { role: "spectator" }; // game_full, not_running: watch instead
    }
    if (!next) {
      this.handlers.onRefused?.(error);
      this.socket.close();
      return;
    }
    this.hello = next;
    this.handlers.onFallback?.(error.code, next);
    this.socket.reopen();
  }
}
