FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain domain
COPY application application
COPY infrastructure infrastructure
COPY api api
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "4", "--threads", "4", "api.wsgi:app"]
