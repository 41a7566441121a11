"""Placeholder until the views are written (replaced in this session)."""

from django.http import Http404


def sheet_list(request, *args, **kwargs):
    raise Http404


def sheet_create(request, *args, **kwargs):
    raise Http404


def sheet_detail(request, *args, **kwargs):
    raise Http404


def sheet_export(request, *args, **kwargs):
    raise Http404
