def pupil(request):
    pupil = getattr(request, "pupil", None)
    return {"pupil": pupil if pupil else None}
