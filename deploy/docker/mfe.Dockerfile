# syntax=docker/dockerfile:1
# One image per tab (micro-frontend), its own deployable: the tab's versioned, content-hashed
# files and the step that releases them, nothing of the shell or the other tabs.
#   docker build -f deploy/docker/mfe.Dockerfile --build-arg MFE=mfe-rewards --build-arg VERSION=0.2.0 \
#     -t registry.example.com/portal/mfe-rewards:0.2.0 .
# Run (the release Job, deploy/k8s/releases/<tab>) with the store mounted at /store, it copies
# /artifact/mfe/<tab>/<version>/ there (an existing version is refused: immutable) and points
# /store/mfe-manifest.json at it; with `--canary 50 [--min-samples N]` added to the Job's args, as
# a canary for that share of members (scripts/publish-mfe.mjs).
FROM node:20-bookworm-slim AS build
ARG MFE
ARG VERSION
WORKDIR /src
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY scripts scripts
COPY shells shells
COPY packages packages
COPY mfe-profile mfe-profile
COPY mfe-orders mfe-orders
COPY mfe-rewards mfe-rewards
COPY mfe-qff mfe-qff
RUN test -n "$MFE" && test -n "$VERSION" && npm ci --no-audit --no-fund \
    && node scripts/publish-mfe.mjs build "$MFE" "$VERSION" --out /artifact

# Node alone: the release step uses no packages (scripts/mfe-release.mjs, scripts/lib.mjs).
FROM gcr.io/distroless/nodejs20-debian12:nonroot
COPY --from=build /artifact /artifact
COPY scripts/publish-mfe.mjs scripts/mfe-release.mjs scripts/lib.mjs /release/scripts/
WORKDIR /release
USER nonroot:nonroot
ENTRYPOINT ["/nodejs/bin/node", "/release/scripts/publish-mfe.mjs"]
# Another command as the Job's args: `rollback <tab> --out /store --no-sw`, `promote ...`.
CMD ["release", "/artifact", "--out", "/store", "--no-sw"]
