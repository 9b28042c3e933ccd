"""The yardstick of bench_load.py: a bare Django view served the same way.

Same settings module and middleware as the app; only the urlconf differs, so
nothing is added to the app's own URLs. Run by bench_load.py with
``gunicorn --pythonpath tests/bench bare_wsgi:application``.
"""

import os

from django.http import HttpResponse
from django.urls import path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def bare(request):
    return HttpResponse(status=204)


urlpatterns = [path("bare/", bare)]


def _application():
    from django.conf import settings
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    # Read per request by the handler: every request resolves against this module.
    settings.ROOT_URLCONF = __name__
    return app


application = _application()
