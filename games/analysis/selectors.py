"""`GET /api/games/<id>/analysis/`: the review of every player of a finished game.

The review replays the move log with the exact solver (up to a second for a long expert game),
in the board process (games.boards.search) and once per game per worker: a finished game never
changes, so its answer is kept in a bounded cache.
"""

from __future__ import annotations

from typing import Any

from games.analysis.review import Moment, Review, review_game
from games.boards.log import game_logs
from games.boards.search import run_apart
from games.boards.stored import board_of
from games.engine.lru import BoundedCache
from games.errors import ServiceError
from games.models import GameMode
from games.races.selectors import game_get

REVIEWS: BoundedCache[str, dict[str, Any]] = BoundedCache(
    max_bytes=4 * 1024 * 1024, size_of=lambda review: 2048, name="reviews"
)


def game_analysis(*, game_id: str) -> dict[str, Any]:
    """Per player: forced guesses faced and survived, and what the fatal click was."""
    game = game_get(game_id=game_id)
    if not game.secrets_open():
        raise ServiceError("not_finished", "the analysis is published when the game is over")
    cached = REVIEWS.get(game.id)
    if cached is not None:
        return cached
    board = board_of(game)
    players = list(game.players.order_by("joined_at", "id"))
    logs = game_logs(game_id=game.id, player_ids=[p.id for p in players])
    start = game.safe_cell if game.mode == GameMode.RACE else None
    reviews = {} if board is None else run_apart(review_game, board, logs, start)
    answer = {
        "game": game.id,
        "no_guess": game.no_guess,
        "players": [_player(p, reviews.get(p.id, Review())) for p in players],
    }
    REVIEWS.put(game.id, answer)
    return answer


def _player(player, review: Review) -> dict[str, Any]:
    fatal = review.fatal
    return {
        "player": player.id,
        "name": player.name,
        "status": player.status,
        "forced_guesses": review.forced_guesses,
        "survived_guesses": review.survived,
        "fatal": None if fatal is None else _moment(fatal),
        "moments": [_moment(m) for m in review.moments],
    }


def _moment(moment: Moment) -> dict[str, Any]:
    probability = moment.probability
    return {
        "seq": moment.seq,
        "t_ms": moment.t_ms,
        "kind": moment.kind,
        "cell": list(moment.cell),
        "survived": moment.survived,
        "probability": None if probability is None else round(float(probability), 4),
        "odds": None
        if probability is None
        else f"{probability.numerator}/{probability.denominator}",
        "safe_cell": None if moment.safe_cell is None else list(moment.safe_cell),
    }
