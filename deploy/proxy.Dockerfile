# The reverse proxy of docker-compose.yml: Debian's nginx, with deploy/nginx.conf.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends nginx-light && rm -rf /var/lib/apt/lists/*
COPY deploy/nginx.conf /etc/nginx/nginx.conf
EXPOSE 8000
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
