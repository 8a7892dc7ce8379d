"""Every way an account is made or renamed (signup, createsuperuser, the admin) updates its
name claim in the same transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.accounts.models import AccountName
from games.names import name_skeleton


@receiver(post_save, sender=get_user_model())
def claim_username(sender: Any, instance: Any, **kwargs: Any) -> None:
    skeleton = name_skeleton(instance.get_username())
    AccountName.objects.update_or_create(user=instance, defaults={"skeleton": skeleton})
