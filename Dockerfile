# One image for the web (gunicorn), the worker and beat (Celery).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.lock .
RUN pip install -r requirements.lock
COPY . .
# collectstatic in production mode: the manifest the running app reads its
# static URLs from is only written then (with DEBUG=1 every page was a 500).
# The build has no secret: a placeholder that signs nothing.
RUN DEBUG=1 python manage.py compilemessages --ignore=.venv -v0 \
    && DEBUG=0 SECRET_KEY=collectstatic-at-build-time-only-it-signs-nothing-at-all \
       python manage.py collectstatic --noinput -v0
RUN useradd --create-home numbo && mkdir -p /app/var && chown numbo /app/var
USER numbo
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--config", "config/gunicorn.conf.py"]
