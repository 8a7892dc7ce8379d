// One WebSocket session with a game, for the solo and the race page alike. It says hello as
// whoever this browser may be there (the stored resume token, else the nickname, or a
// spectator when asked to watch), keeps the token, follows the server's clock, and when the
// server refuses the hello it retries as something the server accepts: a stale token joins by
// name, a taken name becomes a guest name, a started or full game is watched instead.
import { ServerClock } from "./clock.js";
import { GameSocket, gameSocketUrl } from "./socket.js";
import { defaultNickname, getNickname, getToken, setToken } from "./storage.js";

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
    this.hello = watch ? { role: "spectator" } : null; // null: decided when the socket opens
    this.helloId = null;
    this.socket = new GameSocket(gameSocketUrl(gameId), {
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

  receive(message) {
    if (message.type === "welcome") {
      if (message.now) this.clock.sync(message.now);
      this.socket.markHealthy();
      this.role = message.role;
      this.you = message.you ?? null;
      if (message.token) {
        setToken(this.gameId, message.token);
        this.hello = { role: "player", token: message.token }; // reconnections resume
      } else {
        this.hello = { role: message.role };
      }
    } else if (message.type === "started" && message.now) {
      this.clock.sync(message.now);
    } else if (message.type === "error" && message.re != null && message.re === this.helloId) {
      this.helloRefused(message);
      return;
    }
    this.handlers.onMessage(message);
  }

  /** Forget this game's token (the player left it): the next hello joins afresh. */
  forgetToken() {
    setToken(this.gameId, null);
    this.hello = null;
  }

  helloRefused(error) {
    const hello = this.hello ?? {};
    let next = null;
    if (hello.token && error.code === "bad_token") {
      setToken(this.gameId, null); // stale (e.g. the player left the race): join afresh
      next = { role: "player", name: getNickname() };
    } else if (error.code === "bad_name" || error.code === "name_taken") {
      next = { role: "player", name: defaultNickname() };
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
