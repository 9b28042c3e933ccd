"""The privacy page: what Numbo keeps about pupils, who sees it, and when it goes."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import privacy


@require_GET
def privacy_page(request):
    return render(
        request,
        "classroom/privacy.html",
        {"leavers": privacy.leavers_sentence(privacy.viewer_school(request))},
    )
