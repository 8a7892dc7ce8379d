"""Every way an account is made or renamed (signup, createsuperuser, the admin) updates its
name claim in the same transaction."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.accounts.models import AccountName
from games.names import name_look, name_skeleton

log = logging.getLogger(__name__)


@receiver(post_save, sender=get_user_model())
def claim_username(
    sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    """Claim a new account's skeleton and look, or move the claim when it is renamed. Saves
    that leave the username alone (a login's last_login) touch nothing: an account older than
    claims whose name collided with an older one's (migration 0002 left it unclaimed) still
    logs in.
    """
    if update_fields is not None and "username" not in update_fields:
        return
    name = instance.get_username()
    skeleton, look = name_skeleton(name), name_look(name)
    current = AccountName.objects.filter(user=instance).values_list("skeleton", "look").first()
    if current is not None and current[0] == skeleton and current[1] in (look, None):
        return  # unchanged (an old account without its look keeps none: migration 0005)
    others = AccountName.objects.exclude(user=instance)
    taken = others.filter(Q(skeleton=skeleton) | Q(look=look)).exists()
    if current is None and not created and taken:
        log.warning("account %s keeps no claim: its name looks like another's", instance.pk)
        return
    # A look-alike's claim makes this fail (unique indexes): signup turns that into name_taken.
    AccountName.objects.update_or_create(
        user=instance, defaults={"skeleton": skeleton, "look": look}
    )
