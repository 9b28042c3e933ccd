"""The record of who did what with pupils' data: the administrator's page."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from classroom.views.access import teacher_required

from .. import record
from ..forms_yearend import RecordFilterForm

PER_PAGE = 50


@teacher_required
@require_GET
def record_page(request):
    if not record.may_read(request.user):
        raise PermissionDenied
    form = RecordFilterForm(request.GET)
    kind = form.cleaned_data["kind"] if form.is_valid() else ""
    page = Paginator(record.entries_seen_by(request.user, kind), PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "school/record/record.html",
        {
            "form": form,
            "page": page,
            "lines": record.lines(page.object_list),
            "kind_query": urlencode({"kind": kind}) if kind else "",
            "own_only": request.user.school_id is None,
        },
    )
