"""Every way an account is made or renamed (signup, createsuperuser, the admin) updates its
name claim in the same transaction."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.accounts.models import AccountName
from games.names import name_skeleton

log = logging.getLogger(__name__)


@receiver(post_save, sender=get_user_model())
def claim_username(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """Claim a new account's skeleton, or move the claim when it is renamed. Saves that leave
    the username alone (a login's last_login) touch nothing: an account older than claims
    whose name collided with an older one's (migration 0002 left it unclaimed) still logs in.
    """
    if update_fields is not None and "username" not in update_fields:
        return
    skeleton = name_skeleton(instance.get_username())
    current = AccountName.objects.filter(user=instance).values_list("skeleton", flat=True).first()
    if current == skeleton:
        return
    taken = AccountName.objects.filter(skeleton=skeleton).exists()
    if current is None and not created and taken:
        log.warning("account %s keeps no claim: its name looks like another's", instance.pk)
        return
    AccountName.objects.update_or_create(user=instance, defaults={"skeleton": skeleton})
