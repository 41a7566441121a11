"""Login throttling: django-axes, for logins that come over HTTP."""

from axes.backends import AxesStandaloneBackend


class ThrottledLoginBackend(AxesStandaloneBackend):
    """Refuse logins from a locked-out username and address.

    A login without a request (the test client, the shell, a management
    command) has no address to throttle and is left to the next backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
