from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse


def healthz(request):
    """For load balancers and compose: the database and the cache answer."""
    status = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        status["database"] = "ok"
    except Exception as error:  # noqa: BLE001 - any failure means unhealthy
        status["database"] = str(error)[:200]
    try:
        cache.set("healthz", 1, 5)
        status["cache"] = "ok" if cache.get("healthz") == 1 else "unreadable"
    except Exception as error:  # noqa: BLE001
        status["cache"] = str(error)[:200]
    healthy = all(value == "ok" for value in status.values())
    return JsonResponse(status, status=200 if healthy else 503)
