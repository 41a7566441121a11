"""The one model every app shares: the idempotency key of a form that creates something.

See ``core.idempotency``.
"""

from django.conf import settings
from django.db import models


class IdempotencyKey(models.Model):
    """A create form's key, stored with what it created, in the transaction of the creation.

    The unique ``key`` is the guard: a second post of the same form (a double tap,
    a retry) cannot insert it again, and answers with ``result_url`` instead.
    """

    key = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    result_url = models.CharField(max_length=500, blank=True)

    def __str__(self):
        return self.key
