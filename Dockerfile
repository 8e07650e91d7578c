# One image for every role (docker-compose.yml): the API (`chase serve`, the default command),
# RQ workers (`chase worker`) and the projection runner (`chase project`).
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain domain
COPY application application
COPY infrastructure infrastructure
COPY api api
RUN pip install --no-cache-dir . && useradd --system --uid 10001 chase
USER chase
EXPOSE 8000
CMD ["chase", "serve", "--host", "0.0.0.0", "--port", "8000"]
