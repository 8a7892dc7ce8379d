// @ts-check
// A WebSocket of the protocol: JSON frames with a fresh integer id, a ping every 20 s, and a
// connection that comes back by itself: when it drops (not by us) it retries after 0.5 s, 1 s,
// 2 s, 4 s, then every 5 s. A game's socket starts each new connection with a fresh `hello`
// (sent by the owner in onOpen); the server's `welcome` is then the whole truth. The quick-match
// socket does not come back: a seek lives and dies with its connection.
// A link cut without a word (a host or a switch port gone) closes nothing for minutes: a frame
// the server always answers that hears nothing back within SILENCE_MS drops the connection and
// opens a new one at once (docs/protocol.md 10.5), as a close would.

const BACKOFF_MS = [500, 1000, 2000, 4000, 5000];
const PING_MS = 20000;
const SILENCE_MS = 1500;
/** Kinds of frame the server answers on the same connection (docs/protocol.md 4). */
const ANSWERED = new Set(["hello", "reveal", "flag", "chord", "ping", "ready"]);

/** The URL of this site's socket at `path` ("/ws/match/"). */
export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

/** A game's socket; a spectator's own (`watch`) may land on any worker (docs/protocol.md 4). */
export function gameSocketUrl(gameId, watch = false) {
  return socketUrl(`/ws/games/${encodeURIComponent(gameId)}/${watch ? "watch/" : ""}`);
}

export class GameSocket {
  /**
   * handlers: onOpen(), onMessage(message),
   * onStatus("connecting" | "open" | "reconnecting" | "closed")
   * reconnect: false to stay closed after a drop (then onStatus("closed")).
   */
  constructor(url, handlers, { reconnect = true } = {}) {
    this.url = url;
    this.handlers = handlers;
    this.reconnect = reconnect;
    this.ws = null;
    this.nextId = 1;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.silenceTimer = null;
    this.stopped = false;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.handlers.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.handlers.onStatus("open");
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.handlers.onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return;
      this.heard();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message.type === "string") this.handlers.onMessage(message);
    });
    ws.addEventListener("close", () => {
      if (ws !== this.ws) return;
      this.dropped();
    });
  }

  /** The connection is gone (closed, or silent): come back after `delay`, by default the
   * backoff's next step. */
  dropped(delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]) {
    clearInterval(this.pingTimer);
    this.heard();
    this.ws = null;
    if (this.stopped) return;
    if (!this.reconnect) {
      this.stopped = true;
      this.handlers.onStatus("closed");
      return;
    }
    this.attempt += 1;
    this.handlers.onStatus("reconnecting");
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** A frame arrived: the link is alive. */
  heard() {
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  /** Nothing came back for an answered frame: leave this socket and reconnect at once. */
  silent(ws) {
    if (ws !== this.ws) return;
    ws.close();
    this.dropped(0);
  }

  /** The connection works (a welcome arrived): the next drop starts the backoff afresh. */
  markHealthy() {
    this.attempt = 0;
  }

  /** Send a message with a fresh integer id; returns the id, or null when not connected. */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    const ws = this.ws;
    ws.send(JSON.stringify({ ...message, id }));
    if (ANSWERED.has(message.type) && this.silenceTimer === null) {
      this.silenceTimer = setTimeout(() => this.silent(ws), SILENCE_MS);
    }
    return id;
  }

  /** Drop the current connection on purpose and open a new one at once. */
  reopen() {
    this.close();
    this.attempt = 0;
    this.connect();
  }

  /** Close for good (until connect() is called again); no reconnection follows. */
  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.heard();
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000);
    this.handlers.onStatus("closed");
  }
}
