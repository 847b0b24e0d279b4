# rankd and rankctl in a small image. Build: docker build -t rank .
# FerretDB's SQLite driver is pure Go, so the binaries need no cgo.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/rankd ./cmd/rankd \
 && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/rankctl ./cmd/rankctl

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /var/lib/rank --create-home rank \
 && mkdir -p /var/lib/rank/data && chown rank:rank /var/lib/rank/data
COPY --from=build /out/rankd /out/rankctl /usr/local/bin/
USER rank
WORKDIR /var/lib/rank
# With no MONGO_URI/REDIS_URL rankd runs on embedded stores under the
# data dir; docker-compose.yml points it at MongoDB and Redis instead.
ENV RANK_ADDR=:8080 RANK_DATA_DIR=/var/lib/rank/data
VOLUME ["/var/lib/rank/data"]
EXPOSE 8080
# docker stop sends SIGTERM: rankd finishes requests in flight, then exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/rankd"]
