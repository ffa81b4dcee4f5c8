# syntax=docker/dockerfile:1
# The static front end (shell and micro-frontends): docker build -f deploy/docker/web.Dockerfile -t portal-web .
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY scripts scripts
COPY shells shells
COPY packages packages
COPY mfe-profile mfe-profile
COPY mfe-orders mfe-orders
COPY mfe-rewards mfe-rewards
COPY mfe-qff mfe-qff
RUN npm ci --no-audit --no-fund && npm run build

# nginx as uid 101 on port 8080; content-hashed files cached for a year, the rest revalidated.
FROM nginxinc/nginx-unprivileged:1.27-alpine
COPY deploy/docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /src/public /usr/share/nginx/html
EXPOSE 8080
