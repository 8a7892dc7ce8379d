"""Sign-up: Django's form, with usernames under the same rules as every name in a game. The
API's sign-up (POST /api/accounts/) runs the same form, so a program meets the page's rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.accounts.services import name_is_claimed
from games.errors import ServiceError
from games.names import NAME_MAX_CHARS, name_clean

TAKEN = "That name, or one that looks like it, is taken."


class SignupForm(UserCreationForm):
    """1..24 visible characters, unique by skeleton (docs/protocol.md 4): nobody can sign up as
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
            raise forms.ValidationError(TAKEN, code="name_taken")
        return name


def signup_check(*, username: Any, password: Any) -> str:
    """The API's sign-up body judged by the page's form: the cleaned username, or `invalid`
    naming the field at fault (`username` first), or `name_taken` for a name already an
    account's or a look-alike of one."""
    for field, value in (("username", username), ("password", password)):
        if not isinstance(value, str):
            raise ServiceError("invalid", f"{field} must be a string", field)
    form = SignupForm(data={"username": username, "password1": password, "password2": password})
    if form.is_valid():
        return form.cleaned_data["username"]
    codes = {error.code for error in form.errors.as_data().get("username", [])}
    if codes & {"name_taken", "unique"}:
        raise ServiceError("name_taken", TAKEN, "username")
    fields = (("username", "username"), ("password", "password1"), ("password", "password2"))
    for field, key in fields:
        if key in form.errors:
            raise ServiceError("invalid", " ".join(form.errors[key]), field)
    raise ServiceError("invalid", " ".join(form.non_field_errors()) or "refused", None)
