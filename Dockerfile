# The web table (qe-rules serve) in a container: one server process (tables live in its
# memory and in one SQLite file, so never run two against the same file), the database
# on a volume, a reverse proxy with TLS in front (see docs/web.md, "Deploying").
#   docker build -t qe-rules-web .
#   docker run -d -p 127.0.0.1:8000:8000 -v qe-tables:/data qe-rules-web \
#       --base-url https://qe.example.org/ --trust-proxy 172.17.0.1
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY qe_rules ./qe_rules
# The project is installed from this source (no version to pin); its web extra brings
# Starlette and uvicorn within the bounds pyproject.toml sets.
# hadolint ignore=DL3013
RUN pip install --no-cache-dir ".[web]" \
    && useradd --system --uid 10001 --home-dir /data qe \
    && mkdir /data \
    && chown qe /data

USER 10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/', timeout=3)"]
ENTRYPOINT ["qe-rules", "serve", "--host", "0.0.0.0", "--port", "8000", "--db", "/data/qe-tables.sqlite3"]
CMD ["--base-url", "http://localhost:8000/"]
