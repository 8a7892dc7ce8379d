"""Sign-up: Django's form, with usernames under the same rules as every name in a game."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.accounts.services import name_is_claimed
from games.errors import ServiceError
from games.names import NAME_MAX_CHARS, name_clean


class SignupForm(UserCreationForm):
    """1..24 visible characters, unique by skeleton (PROTOCOL.md 4): nobody can sign up as
    a look-alike of an existing player, and the name works in every game. Django's own rule
    (letters, digits and @.+-_, any script) still applies on top: no spaces in a username."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.max_length = NAME_MAX_CHARS
        username.widget.attrs["maxlength"] = str(NAME_MAX_CHARS)
        username.help_text = (
            f"1 to {NAME_MAX_CHARS} letters, digits or @.+-_. Names that look alike count "
            "as one name."
        )

    def clean_username(self) -> str:
        try:
            name = name_clean(self.cleaned_data.get("username"))
        except ServiceError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from None
        if name_is_claimed(name=name):
            raise forms.ValidationError(
                "That name, or one that looks like it, is taken.", code="name_taken"
            )
        return name
