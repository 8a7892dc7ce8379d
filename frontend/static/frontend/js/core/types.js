// @ts-check
// The wire's shapes, as the pages read them: every frame of the sockets and every API answer
// (docs/protocol.md 3, 4, 5, 7, 8 and 10). Types only: nothing here runs. A module imports one
// with `/** @typedef {import("../core/types.js").GameState} GameState */`, and the
// TypeScript check (`make lint`) then holds what it reads against this file.
// Fields are optional (`?`) where the server leaves them out; `| null` where it sends null.

/** @typedef {"beginner" | "intermediate" | "expert"} Preset */
/** @typedef {"classic" | "no_guess"} Variant */
/** @typedef {"lobby" | "countdown" | "running" | "finished"} GameStatus */
/** @typedef {"joined" | "ready" | "playing" | "won" | "lost" | "dnf"} PlayerStatus */
/** @typedef {[number, number]} Point a cell as [x, y] */
/**
 * A cell of a board as [x, y, v]: 0..8 revealed, "F" flagged, "H" hidden again, "X" a mine
 * stepped on (docs/protocol.md 4); a finished game's disclosed mines are drawn as "M".
 * @typedef {[number, number, number | string]} WireCell
 */

/**
 * A player's counts after a move (docs/protocol.md 4, `cells`).
 * @typedef {object} Progress
 * @property {number} revealed
 * @property {number} safe_cells
 * @property {number} flags
 * @property {number} clicks
 * @property {number} [bbbv_solved] a spectator's (docs/protocol.md 4, v1.3), as the next two
 * @property {number | null} [efficiency]
 * @property {number | null} [bbbv_per_s]
 */

/**
 * A player in a game's public state (docs/protocol.md 3).
 * @typedef {object} PlayerState
 * @property {string} id
 * @property {string} name
 * @property {PlayerStatus} status
 * @property {number} revealed
 * @property {number} safe_cells
 * @property {number} flags
 * @property {number} clicks
 * @property {number | null} time_ms
 * @property {boolean} is_bot the server's own bots
 * @property {boolean} bot any bot account's player
 * @property {boolean} [berserk]
 * @property {boolean | null} [online] null: not seen yet (docs/protocol.md 2.1)
 * @property {string | null} [drop_at]
 * @property {number | null} [rating] running races' list only
 * @property {boolean | null} [rating_provisional]
 * @property {"under_review" | "cleared" | "cheat" | null} [review] the account's own entry
 */

/**
 * One row of `game_over`, `decided` and a finished game's `results` (docs/protocol.md 4, 10.1).
 * @typedef {object} ResultRow
 * @property {number} rank
 * @property {string} player
 * @property {string} name
 * @property {boolean} bot
 * @property {PlayerStatus} status
 * @property {number | null} time_ms
 * @property {number | null} bbbv
 * @property {number | null} bbbv_per_s
 * @property {number} clicks
 * @property {number | null} efficiency
 * @property {number | null} [bbbv_solved]
 * @property {number} [left_clicks]
 * @property {number} [right_clicks]
 * @property {number} [chord_clicks]
 * @property {number | null} [est_time_ms]
 * @property {number | null} [rqp]
 * @property {number | null} [ioe]
 * @property {number | null} [stnb]
 * @property {number | null} [rating_before] rated races
 * @property {number | null} [rating_after]
 * @property {boolean | null} [provisional]
 * @property {string | null} [league_before]
 * @property {string | null} [league]
 * @property {"promotion" | "demotion" | null} [league_change]
 * @property {boolean | null} [personal_best] `game_over` only
 * @property {number | null} [leaderboard_rank]
 */

/**
 * A game's public state: `GET /api/games/<id>/`, a `welcome`'s `game` (docs/protocol.md 3, 10).
 * @typedef {object} GameState
 * @property {string} id
 * @property {"solo" | "race"} mode
 * @property {Preset | null} preset
 * @property {number} width
 * @property {number} height
 * @property {number} mines
 * @property {number} max_players
 * @property {boolean} ranked
 * @property {boolean} no_guess
 * @property {boolean} rated
 * @property {GameStatus} status
 * @property {string} seed_commitment
 * @property {string} page
 * @property {string} ws
 * @property {string} created_at
 * @property {string | null} starts_at
 * @property {string | null} started_at
 * @property {string | null} finished_at
 * @property {Point | null} start
 * @property {PlayerState[]} players
 * @property {string | null} [ready_deadline]
 * @property {number} [spectators]
 * @property {string | null} [decided_at]
 * @property {ResultRow[]} [decided] while a decided race still runs
 * @property {string | null} [winner]
 * @property {string} [seed] once finished
 * @property {string} [seed_salt]
 * @property {Point} [safe_cell]
 * @property {Point[]} [mine_cells]
 * @property {ResultRow[]} [results]
 * @property {number | null} [ng_attempt]
 * @property {string} [secrets_at] a daily run that keeps its board's secrets
 * @property {boolean} [aborted] a race that moved no rating and no point (docs/protocol.md 6.2)
 * @property {string | null} [aborted_because]
 * @property {string | null} [unrated_because] why a race that would be rated is played unrated
 */

// ---- frames of /ws/games/<id>/ (docs/protocol.md 4, 2.1, 7, 10) ----------------------------

/**
 * @typedef {object} WelcomeFrame
 * @property {"welcome"} type
 * @property {number | null} [re]
 * @property {"player" | "spectator"} role
 * @property {string | null} you
 * @property {string} [token]
 * @property {GameState} game
 * @property {Object<string, WireCell[]>} boards
 * @property {string} now
 * @property {Object<string, number>} [seqs]
 * @property {WireCell[]} [common] a spectator's, while the game runs (docs/protocol.md 4)
 * @property {Object<string, number>} [bbbv_solved] a spectator's: each racer's 3BV solved
 * @property {boolean} [resync] a fresh welcome in place of what the spectator missed
 */
/**
 * @typedef {object} JoinedFrame
 * @property {"joined"} type
 * @property {number | null} [re]
 * @property {{id: string, name: string, bot?: boolean}} player
 * @property {boolean} [ranked]
 * @property {boolean} [rated]
 */
/**
 * @typedef {object} ReadyFrame
 * @property {"ready"} type
 * @property {number | null} [re]
 * @property {string} player
 * @property {string | null} [ready_deadline]
 */
/**
 * @typedef {object} LeftFrame
 * @property {"left"} type
 * @property {number | null} [re]
 * @property {string} player
 * @property {string | null} [ready_deadline]
 */
/**
 * @typedef {object} SpectatorsFrame
 * @property {"spectators"} type
 * @property {number} count
 */
/**
 * @typedef {object} CountdownFrame
 * @property {"countdown"} type
 * @property {string} starts_at
 * @property {Point} start
 */
/**
 * @typedef {object} StartedFrame
 * @property {"started"} type
 * @property {string} started_at
 * @property {Point} start
 * @property {string} [now]
 */
/**
 * @typedef {object} CellsFrame
 * @property {"cells"} type
 * @property {number | null} [re]
 * @property {string} player
 * @property {number} seq
 * @property {"reveal" | "flag" | "chord"} action
 * @property {number} x
 * @property {number} y
 * @property {WireCell[]} cells
 * @property {Progress} progress
 * @property {PlayerStatus} status
 */
/**
 * The cells new in a running game's common ground, to its spectators (docs/protocol.md 4).
 * @typedef {object} CommonFrame
 * @property {"common"} type
 * @property {WireCell[]} cells
 */
/**
 * A spectator's frame holding several messages, in order (docs/protocol.md 4).
 * @typedef {object} BatchFrame
 * @property {"batch"} type
 * @property {GameFrame[]} messages
 */
/**
 * @typedef {object} ProgressFrame
 * @property {"progress"} type
 * @property {string} player
 * @property {number} seq
 * @property {Progress} progress
 * @property {PlayerStatus} status
 */
/**
 * @typedef {object} FinishedFrame
 * @property {"finished"} type
 * @property {number | null} [re]
 * @property {string} player
 * @property {PlayerStatus} status
 * @property {number | null} time_ms
 */
/**
 * @typedef {object} GameOverFrame
 * @property {"game_over"} type
 * @property {ResultRow[]} results
 * @property {string | null} [winner]
 * @property {boolean} [aborted]
 * @property {string | null} [aborted_because]
 * @property {string} [seed]
 * @property {string} [seed_salt]
 * @property {Point} [safe_cell]
 * @property {Point[]} [mine_cells]
 */
/**
 * @typedef {object} DecidedFrame
 * @property {"decided"} type
 * @property {ResultRow[]} results
 * @property {string | null} winner
 * @property {boolean} [aborted]
 * @property {string | null} [aborted_because]
 */
/**
 * @typedef {object} PresenceFrame
 * @property {"presence"} type
 * @property {string} player
 * @property {boolean} online
 * @property {string | null} drop_at
 */
/**
 * @typedef {object} ReactionFrame a racer's emote (docs/protocol.md 10.7)
 * @property {"reaction"} type
 * @property {number | null} [re]
 * @property {string} player
 * @property {string} emote
 */
/**
 * @typedef {object} RematchFrame
 * @property {"rematch"} type
 * @property {number | null} [re]
 * @property {string} game
 * @property {string} [by]
 * @property {number} [others_here] the racers but the one who asked still connected
 */
/**
 * @typedef {object} BerserkFrame
 * @property {"berserk"} type
 * @property {number | null} [re]
 * @property {string} player
 */
/**
 * @typedef {object} ErrorFrame
 * @property {"error"} type
 * @property {string} code
 * @property {string} message
 * @property {number | null} [re]
 */
/**
 * @typedef {object} PongFrame
 * @property {"pong"} type
 * @property {number | null} [re]
 */

/**
 * Every frame of a game's socket.
 * @typedef {WelcomeFrame | JoinedFrame | ReadyFrame | LeftFrame | SpectatorsFrame |
 *   CountdownFrame | StartedFrame | CellsFrame | ProgressFrame | FinishedFrame | GameOverFrame |
 *   DecidedFrame | PresenceFrame | RematchFrame | ReactionFrame | BerserkFrame | ErrorFrame |
 *   PongFrame | CommonFrame | BatchFrame} GameFrame
 */
/**
 * A handler per kind of frame, each given that kind's shape.
 * @typedef {{ [K in GameFrame["type"]]?: (frame: Extract<GameFrame, { type: K }>) => void }}
 *   GameFrameHandlers
 */

// ---- frames of /ws/match/ (docs/protocol.md 5) ---------------------------------------------

/**
 * @typedef {object} SeekingFrame
 * @property {"seeking"} type
 * @property {Preset} preset
 * @property {boolean} no_guess
 * @property {number} waiting the seekers this one could meet, itself included
 * @property {string} [note] what keeps another seeker apart, in words (docs/protocol.md 5)
 */
/**
 * @typedef {object} MatchedFrame
 * @property {"matched"} type
 * @property {GameState} game
 * @property {string} token
 */
/**
 * @typedef {object} CancelledFrame
 * @property {"cancelled"} type
 */
/** @typedef {SeekingFrame | MatchedFrame | CancelledFrame | ErrorFrame | PongFrame} MatchFrame */

// ---- tournaments: GET /api/tournaments/... and /ws/tournaments/<id>/ (docs/protocol.md 7) ----

/**
 * @typedef {object} TournamentSummary
 * @property {string} id
 * @property {string} name
 * @property {Preset} preset
 * @property {boolean} no_guess
 * @property {string} starts_at
 * @property {string} ends_at
 * @property {"upcoming" | "running" | "finished"} status
 * @property {number} players
 * @property {boolean} private
 * @property {string} page
 * @property {string} ws
 */
/**
 * @typedef {object} StandingRow
 * @property {number} rank
 * @property {string} name
 * @property {boolean} bot
 * @property {number} points
 * @property {number} races
 * @property {number} wins
 * @property {boolean} fire
 * @property {number} streak
 * @property {number} berserk_wins
 * @property {boolean} withdrawn
 * @property {string | null} [game] `you` only: the race it plays now
 */
/**
 * @typedef {TournamentSummary & {
 *   standings: StandingRow[], podium?: StandingRow[], page_number?: number, pages?: number,
 *   you?: StandingRow | null
 * }} TournamentState
 */
/**
 * @typedef {object} TournamentWelcomeFrame
 * @property {"welcome"} type
 * @property {TournamentState} tournament
 * @property {StandingRow | null} you
 */
/**
 * @typedef {object} StandingsFrame
 * @property {"standings"} type
 * @property {StandingRow[]} standings
 * @property {number} players
 */
/**
 * @typedef {object} PairedFrame
 * @property {"paired"} type
 * @property {GameState} game
 * @property {string} token
 * @property {false} [points] false: this race scores no points (docs/protocol.md 6.2)
 * @property {string} [no_points_because] why: "pair_tournament_cap"
 */
/**
 * @typedef {object} TournamentFinishedFrame
 * @property {"finished"} type
 * @property {StandingRow[]} podium
 */
/**
 * @typedef {TournamentWelcomeFrame | StandingsFrame | PairedFrame | TournamentFinishedFrame |
 *   ErrorFrame | PongFrame} TournamentFrame
 */

// ---- the pages' own DOM ---------------------------------------------------------------------

/**
 * A form whose controls the page reads by name (`form.elements.width.value`).
 * @typedef {HTMLFormElement & {elements: HTMLFormControlsCollection &
 *   Object<string, HTMLInputElement & HTMLSelectElement>}} NamedForm
 */

// ---- other API answers (docs/protocol.md 3, 6.1, 8, 10) ------------------------------------

/**
 * `{"error": ...}` of every failed API call.
 * @typedef {object} ApiErrorBody
 * @property {string} code
 * @property {string} message
 * @property {string | null} [field]
 */
/**
 * A leaderboard or player-page entry (docs/protocol.md 3, 10).
 * @typedef {object} ScoreEntry
 * @property {number} [rank]
 * @property {string} name
 * @property {number | null} time_ms
 * @property {number | null} bbbv
 * @property {number | null} bbbv_per_s
 * @property {number | null} [efficiency]
 * @property {string} game
 * @property {string} finished_at
 * @property {boolean} [verified]
 * @property {string | null} [player_page]
 */
/**
 * A confirmed record (docs/protocol.md 9.3); in `history`, with the record that beat it.
 * @typedef {object} RecordEntry
 * @property {number} id
 * @property {Preset} preset
 * @property {Variant} variant
 * @property {"all" | "nf"} style
 * @property {string} name
 * @property {string | null} player_page
 * @property {number} time_ms
 * @property {number} bbbv
 * @property {number} bbbv_per_s
 * @property {string} game
 * @property {string} set_at
 * @property {string} confirmed_at
 * @property {string} kit the path of its verification kit
 * @property {number} [beaten_by]
 * @property {string} [beaten_at]
 */
/**
 * `GET /api/records/` (docs/protocol.md 9.3).
 * @typedef {object} RecordsAnswer
 * @property {RecordEntry[]} records
 * @property {RecordEntry[]} history
 */
/**
 * `GET /api/me/` (docs/protocol.md 6.1).
 * @typedef {object} Me
 * @property {string} name
 * @property {boolean} bot
 * @property {boolean} marked
 */
/**
 * A season (docs/protocol.md 8.3).
 * @typedef {object} Season
 * @property {string} id
 * @property {string} name
 * @property {string} starts_at
 * @property {string} ends_at
 * @property {boolean} current
 */
/**
 * A daily board (docs/protocol.md 10.4).
 * @typedef {object} DailyBoard
 * @property {string} day
 * @property {Preset} preset
 * @property {number} width
 * @property {number} height
 * @property {number} mines
 * @property {Point} start
 * @property {string} seed_commitment
 * @property {boolean} over
 * @property {string} ends_at
 * @property {string} [seed]
 * @property {string} [seed_salt]
 */
/**
 * `GET /api/daily/runs/<game id>/` (docs/protocol.md 10.4).
 * @typedef {object} DailyRun
 * @property {string} game
 * @property {string} day
 * @property {Preset} preset
 * @property {boolean} counted
 * @property {boolean} over
 * @property {string} ends_at
 */

export {};
