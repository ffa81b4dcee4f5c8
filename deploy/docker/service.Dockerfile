# syntax=docker/dockerfile:1
# One image per service: docker build -f deploy/docker/service.Dockerfile --build-arg SERVICE=profile -t portal-profile .
# SERVICE: gateway, auth, profile, connections, qff or refdata (or BIN=qff-sandbox SERVICE=qff-sandbox
# for the partner sandbox, used by the dev overlay only). Built from the repository root.
ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-slim-bookworm AS build
ARG SERVICE
ARG BIN=portal-${SERVICE}
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY proto proto
COPY services services
RUN --mount=type=cache,target=/usr/local/cargo/registry --mount=type=cache,target=/src/target \
    cargo build --release --locked -p "portal-${SERVICE}" && cp "target/release/${BIN}" /service

# Minimal runtime: glibc and CA certificates, no shell, runs as uid 65532.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /service /usr/local/bin/service
COPY config/tenant.json /etc/portal/tenant.json
ENV PORTAL_MODE=production \
    PORTAL_HOST=0.0.0.0 \
    PORT=8080 \
    PORTAL_GRPC_HOST=0.0.0.0 \
    PORTAL_GRPC_PORT=50051 \
    PORTAL_TENANT_CONFIG=/etc/portal/tenant.json \
    PORTAL_DEMO_DATA=false
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/service"]
