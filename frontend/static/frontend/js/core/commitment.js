// @ts-check
// The check anyone can repeat that a board was fixed before play (docs/protocol.md 1.7): the SHA-256
// of salt ":" seed, disclosed at the end, must equal the commitment published before the first
// move (a game from before salts hashes its seed alone). Used by the race results and the daily
// pages.

/** The hex SHA-256 of a string's UTF-8, or null where crypto.subtle is missing. */
async function sha256Hex(text) {
  if (!window.crypto?.subtle) return null;
  const digest = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Does a disclosed seed match its commitment? "yes", "no", or "unknown" where the browser
 * cannot hash (a page that is not a secure context). `board`: a game or a daily board, with
 * seed, seed_salt and seed_commitment.
 */
export async function commitmentVerdict(board) {
  const seed = board.seed ?? "";
  let hash;
  try {
    hash = await sha256Hex(board.seed_salt ? `${board.seed_salt}:${seed}` : seed);
  } catch {
    hash = null;
  }
  if (hash === null) return "unknown";
  return hash === board.seed_commitment ? "yes" : "no";
}
