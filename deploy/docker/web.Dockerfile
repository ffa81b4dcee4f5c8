# syntax=docker/dockerfile:1
# The shell's static files: docker build -f deploy/docker/web.Dockerfile -t portal-web .
# The tabs are not in it: each is its own image (mfe.Dockerfile), released into the mfe-store
# volume that nginx serves as /mfe/ (the tabs' packages are copied only for npm ci's workspaces).
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
RUN npm ci --no-audit --no-fund && PORTAL_SHELL_ONLY=1 npm run build

# nginx as uid 101 on port 8080; content-hashed files cached for a year, the rest revalidated.
FROM nginxinc/nginx-unprivileged:1.27-alpine
COPY deploy/docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /src/public /usr/share/nginx/html
EXPOSE 8080
