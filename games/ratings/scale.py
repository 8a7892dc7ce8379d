"""The one number a player sees: 1000 + 40 x (mu - 3 sigma), rounded.

mu - 3 sigma is OpenSkill's conservative estimate (the ordinal): a newcomer (mu 25, sigma 25/3)
shows 1000, and the number rises both with skill and with the certainty of it, so a few lucky
wins do not put anyone on top. Ratings from fewer than PROVISIONAL_GAMES races are provisional.
"""

from __future__ import annotations

BASE, STEP = 1000, 40
PROVISIONAL_GAMES = 10  # docs/protocol.md 8 (v1.1 said 5)


def display(mu: float, sigma: float) -> int:
    return round(BASE + STEP * (mu - 3 * sigma))


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES
