"""Logging in: usernames match whatever their case, django-axes' hooks that count failed
logins in the database (shared by every worker) and answer a locked-out login, and the API's
sessions (docs/protocol.md 3, v1.2), which go through the same login form and the same throttle.

Settings: AUTHENTICATION_BACKENDS and AXES_* in config/settings.py; docs/deploy.md,
"Security headers and logins", says how they were chosen and how to unlock.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.accounts.forms import signup_check
from games.accounts.services import account_create
from games.edge.http import error_response
from games.errors import ServiceError

UserModel = get_user_model()
BACKEND = "games.accounts.auth.CaseInsensitiveModelBackend"
USERNAME_MAX_CHARS = UserModel._meta.get_field(UserModel.USERNAME_FIELD).max_length


def user_for_login(username: str) -> AbstractBaseUser | None:
    """The account a typed username means: the one equal to it ignoring case. Signup keeps
    names unique by skeleton, so that is one at most; should older accounts differ only by
    case, the exact spelling wins, and without it none does (never a guess between two)."""
    field = UserModel.USERNAME_FIELD
    matches = list(UserModel._default_manager.filter(**{f"{field}__iexact": username})[:16])
    if len(matches) == 1:
        return matches[0]
    return next((user for user in matches if user.get_username() == username), None)


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's ModelBackend with the username looked up ignoring case (issue 13.2)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if username is None:
            username = kwargs.get(UserModel.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_for_login(username)
        if user is None:
            # Hash once anyway, as ModelBackend does, so timing does not tell which names exist.
            UserModel().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None

    async def aauthenticate(self, request: HttpRequest | None, **credentials: Any):
        return await sync_to_async(self.authenticate)(request, **credentials)


# ---- django-axes ------------------------------------------------------------------------------


def client_address(request: HttpRequest) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: REMOTE_ADDR and nothing else. The ASGI stack sets it to the
    client's address as the trusted proxies report it; a header the client sends itself
    (X-Forwarded-For) must never choose which counter a failure goes to."""
    return request.META.get("REMOTE_ADDR")


USERNAME_KEY_LENGTH = 150


def username_key(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """AXES_USERNAME_CALLABLE: failures count per name whatever its case, as login matches."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials is not None:
        username = credentials.get(field)
    else:
        username = getattr(request, "POST", {}).get(field)
    if not isinstance(username, str):
        return None
    # No account's name is longer than 150 characters: a longer one is kept at that length, so
    # the failure's record fits its column (255) and still counts against the same key.
    return username.casefold()[:USERNAME_KEY_LENGTH]


class LoginAttemptsHandler(AxesDatabaseHandler):
    """Axes' database handler, except that a successful login forgets only its own failures.

    Axes resets every failure matching any lockout parameter: with failures counted by
    address, logging in to one's own account would wipe that address's failures on every
    other name, and one account would buy an attacker unlimited guesses, four at a time.
    """

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        attempts = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials),
            ip_address=request.axes_ip_address,
        )
        count, _ = attempts.delete()
        return count


def retry_after_s(request: HttpRequest) -> int:
    """Seconds until a locked-out login may be tried again (each failure restarts the wait)."""
    wait = get_cool_off(request)
    return max(1, int(wait.total_seconds())) if wait else 60


def too_many_failures(request: HttpRequest) -> ServiceError:
    return ServiceError(
        "rate_limited",
        "too many failed logins for this name from this address; try again later",
        retry_after_s=retry_after_s(request),
    )


def locked_out(
    request: HttpRequest, original_response: object = None, credentials: object = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page's "too many failed logins", with a 429; under
    /api/ the same refusal in the API's error shape."""
    if request.path.startswith("/api/"):
        error = too_many_failures(request)
        return error_response(error, headers={"Retry-After": str(error.retry_after_s)})
    wait = get_cool_off(request)
    minutes = max(1, round(wait.total_seconds() / 60)) if wait else None
    response = render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
    if wait:
        response["Retry-After"] = str(int(wait.total_seconds()))
    return response


# ---- the API's sessions (docs/protocol.md 3, v1.2) ---------------------------------------------


def session_login(*, request: HttpRequest, username: Any, password: Any) -> AbstractBaseUser:
    """Log this session in through the login page's own form (its field rules, axes' throttle
    and the case-insensitive backend): `bad_login`, or `rate_limited` while the name is locked
    out from this address, whatever the password. Not atomic, on purpose: a refused login
    must keep the failure that axes has just written."""
    for field, value in (("username", username), ("password", password)):
        if not isinstance(value, str):
            raise ServiceError("invalid", f"{field} must be a string", field)
    # The form only displays this limit; past it no account matches, and the failure's row
    # (axes keeps the name, 255 characters at most) could not even be written.
    if len(username) > USERNAME_MAX_CHARS:
        raise ServiceError(
            "invalid", f"usernames have at most {USERNAME_MAX_CHARS} characters", "username"
        )
    form = AuthenticationForm(request, data={"username": username, "password": password})
    valid = form.is_valid()
    if getattr(request, "axes_locked_out", False):
        raise too_many_failures(request)
    if not valid:
        for field in ("username", "password"):
            if field in form.errors:  # empty, or a NUL: never tried, so never counted
                raise ServiceError("invalid", " ".join(form.errors[field]), field)
        raise ServiceError("bad_login", "wrong username or password")
    user = form.get_user()
    login(request, user)
    return user


@transaction.atomic
def session_signup(*, request: HttpRequest, username: Any, password: Any) -> AbstractBaseUser:
    """Create an account under the sign-up page's rules and log this session in as it; the
    client address's sign-ups are limited as the page's are (accounts.signups)."""
    name = signup_check(username=username, password=password)
    address = request.META.get("REMOTE_ADDR") or ""
    user = account_create(username=name, password=password, address=address)
    login(request, user, backend=BACKEND)
    return user


def session_logout(*, request: HttpRequest) -> None:
    """End this session (a session that was not logged in stays logged out)."""
    logout(request)
