from django.utils.functional import SimpleLazyObject

from .pupil_auth import get_pupil


class PupilMiddleware:
    """Sets request.pupil (or None), looked up only when a view asks."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.pupil = SimpleLazyObject(lambda: get_pupil(request))
        return self.get_response(request)
