"""Placeholder until the views are written (replaced in this session)."""

from django.http import Http404


def club_detail(request, *args, **kwargs):
    raise Http404
