// @ts-check
// The player's game settings: kept in this browser (storage.js) for everyone and, for an
// account, on the server (GET/PUT /api/me/settings/, docs/protocol.md 10.3), so they follow
// the account to another device. On load the server's values win over the browser's; a change
// is stored here at once and sent to the server for an account.
import { getStoredSettings, setStoredSettings } from "./storage.js";

export const THEMES = ["classic", "dark", "contrast"];

const isBool = (value) => typeof value === "boolean";
const intBetween = (low, high) => (value) =>
  Number.isInteger(value) && value >= low && value <= high;

/** Each key's rule: the same as the server's (games/accounts/preferences.py). */
export const RULES = {
  cell_size: intBetween(12, 48),
  chord_on_left: isBool,
  long_press_ms: intBetween(250, 1000),
  flag_mode: isBool,
  sound: isBool,
  reactions: isBool,
  theme: (value) => THEMES.includes(value),
};

/** cell_size null: the board's own default (32 px, 40 for boards of 16 columns or fewer). */
export const DEFAULTS = {
  cell_size: null,
  chord_on_left: true,
  long_press_ms: 400,
  flag_mode: false,
  sound: false,
  reactions: true,
  theme: "classic",
};

const URL = "/api/me/settings/";

/** The known keys of `values` whose values are valid. */
function valid(values) {
  const clean = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (RULES[key]?.(value)) clean[key] = value;
  }
  return clean;
}

class Settings {
  constructor() {
    this.values = { ...DEFAULTS, ...valid(getStoredSettings()) };
    this.account = null; // the account's name once the server said so
    this.synced = false;
    this.pending = {}; // changes made before the server answered, sent after it
    this.listeners = new Set();
    this.status = "local"; // local, account, unsaved (the account's copy failed)
  }

  get(key) {
    return this.values[key];
  }

  /** Call `listener(values, changedKeys)` on every change; returns a function to stop. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(keys) {
    if (keys.length === 0) return;
    for (const listener of this.listeners) listener(this.values, keys);
  }

  /** Change some settings (invalid values are ignored): stored here, and for an account sent. */
  set(changes) {
    const change = valid(changes);
    const keys = Object.keys(change).filter((key) => this.values[key] !== change[key]);
    if (keys.length === 0) return;
    Object.assign(this.values, change);
    this.store();
    this.notify(keys);
    if (!this.synced) Object.assign(this.pending, change);
    else if (this.account) this.push(change);
  }

  store() {
    const stored = {};
    for (const [key, value] of Object.entries(this.values)) {
      if (value !== DEFAULTS[key]) stored[key] = value;
    }
    setStoredSettings(stored);
  }

  /** Ask the server for the account's settings; a guest, a 404 or no network: this browser's. */
  async load() {
    try {
      const answer = await request("GET");
      this.account = answer?.account ?? null;
      if (this.account) {
        const server = valid(answer.settings);
        const merged = { ...this.values, ...server, ...this.pending };
        const keys = Object.keys(merged).filter((key) => merged[key] !== this.values[key]);
        this.values = merged;
        this.store();
        this.status = "account";
        this.notify(keys);
        if (Object.keys(this.pending).length) this.push(this.pending);
      }
    } catch {
      this.account = null; // not there yet, or not reachable: the browser's copy is the truth
    }
    this.synced = true;
    this.pending = {};
    this.notify(["account"]);
  }

  async push(change) {
    try {
      await request("PUT", change);
      this.status = "account";
    } catch (error) {
      if (error.status === 401) this.account = null; // logged out meanwhile
      this.status = this.account ? "unsaved" : "local";
    }
    this.notify(["account"]);
  }
}

async function request(method, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(URL, init);
  if (!response.ok) {
    const error = new Error(`settings: HTTP ${response.status}`);
    throw Object.assign(error, { status: response.status });
  }
  return response.json();
}

/** This page's settings (one per page). */
export const settings = new Settings();

/** The theme on the page: <html data-theme>, which board.css reads. */
export function applyTheme(theme) {
  if (theme === "classic") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

applyTheme(settings.get("theme"));
settings.subscribe((values, keys) => {
  if (keys.includes("theme")) applyTheme(values.theme);
});
