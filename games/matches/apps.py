from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "games.matches"
    label = "matches"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Races are below this room: it scores each of its races in the transaction that
        # decides it (and makes the next), and adds `match` to the race's public state
        # (docs/protocol.md 9.4).
        from games.matches.selectors import race_match_facts
        from games.matches.services import match_race_scored
        from games.races.deciding import decided_hook_register
        from games.races.extensions import state_facts_register

        decided_hook_register("match", match_race_scored)
        state_facts_register("match", race_match_facts)
