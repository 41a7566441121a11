"""Placeholder until the views are written (replaced in this session)."""

from django.http import Http404


def hand_create(request, *args, **kwargs):
    raise Http404


def hand_preview(request, *args, **kwargs):
    raise Http404


def hand_detail(request, *args, **kwargs):
    raise Http404


def hand_edit(request, *args, **kwargs):
    raise Http404


def hand_delete(request, *args, **kwargs):
    raise Http404


def hand_restore(request, *args, **kwargs):
    raise Http404
