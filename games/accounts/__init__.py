"""Accounts: names they own, sign-up and logins, bot accounts and kept game settings.

models.py       an account's claim on its name, unique by skeleton; its kind and settings;
                where it signed up from
services.py     writes: claim a name, create an account, make it a bot, keep its settings
signups.py      how many accounts a client address may make in an hour and in a day
selectors.py    reads: an account's kind and its game settings
views.py        the API: sign-up, sessions, me, the bot upgrade, settings
forms.py        the sign-up form, shared by the page and the API
auth.py         logins: case-blind usernames and django-axes' failure counting
passwords.py    our password rules beside Django's
preferences.py  each game setting's rule, and validation of a change
signals.py      a new or renamed account updates its name claim
apps.py         the Django app, which connects signals.py
"""
