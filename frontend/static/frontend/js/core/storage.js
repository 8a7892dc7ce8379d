// @ts-check
// What the browser remembers between pages: the nickname, the "No guessing" choice, the game
// settings (settings.js) and one resume token per game.
// localStorage can be unavailable (private modes, disabled storage): fall back to memory.

const memory = new Map();

function read(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return memory.has(key) ? memory.get(key) : null;
  }
}

function write(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
}

const NICKNAME_KEY = "minerace.nickname";
const NO_GUESS_KEY = "minerace.no_guess";
const SETTINGS_KEY = "minerace.settings";
const tokenKey = (gameId) => `minerace.token.${gameId}`;
const hintKey = (name) => `minerace.hint.${name}`;

export const NAME_MAX_LENGTH = 24;

/** A name the server accepts: 1..24 characters after trimming (docs/protocol.md 4). */
export function isValidName(name) {
  const trimmed = (name ?? "").trim();
  return trimmed.length >= 1 && [...trimmed].length <= NAME_MAX_LENGTH;
}

export function defaultNickname() {
  return `guest-${String(Math.floor(1000 + Math.random() * 9000))}`;
}

/** The stored nickname; a fresh guest name is stored on first use. */
export function getNickname() {
  const stored = read(NICKNAME_KEY);
  if (isValidName(stored)) return stored.trim();
  const name = defaultNickname();
  write(NICKNAME_KEY, name);
  return name;
}

export function setNickname(name) {
  if (isValidName(name)) write(NICKNAME_KEY, name.trim());
}

export function getToken(gameId) {
  return read(tokenKey(gameId));
}

export function setToken(gameId, token) {
  write(tokenKey(gameId), token || null);
}

/** Whether new preset games should be no-guess boards (the lobby's toggle); off by default. */
export function getNoGuess() {
  return read(NO_GUESS_KEY) === "1";
}

export function setNoGuess(on) {
  write(NO_GUESS_KEY, on ? "1" : null);
}

/** The game settings kept in this browser: an object (unchecked: settings.js validates it). */
export function getStoredSettings() {
  try {
    const value = JSON.parse(read(SETTINGS_KEY) ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export function setStoredSettings(values) {
  write(SETTINGS_KEY, JSON.stringify(values));
}

/** Whether the hint `name` (e.g. "long-press") was shown in this browser already. */
export function hintSeen(name) {
  return read(hintKey(name)) === "seen";
}

export function setHintSeen(name) {
  write(hintKey(name), "seen");
}
