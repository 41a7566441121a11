"""Site-wide views that belong to no app."""

from django.shortcuts import render


def home(request):
    """The landing page. Apps add their links to templates/home.html."""
    return render(request, "home.html")
