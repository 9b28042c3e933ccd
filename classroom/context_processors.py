def pupil(request):
    pupil = getattr(request, "pupil", None)
    pupil = pupil if pupil else None
    # The top bar reads `signed_in_pupil`: a page about a pupil who is not
    # signed in yet (their picture password) passes its own `pupil`.
    return {"pupil": pupil, "signed_in_pupil": pupil}
