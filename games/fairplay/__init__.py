"""Fair play (docs/protocol.md 6): every game that counts is screened when it ends; a game with a
signal waits off the leaderboards until a moderator decides."""
