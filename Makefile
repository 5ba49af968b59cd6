# The two commands a new user needs: `make run` (the example app) and `make test`.
# APP selects the application directory for check/migrate/serve (default: the example app).

APP ?= example
NODE := node --import tsx
export APP

.PHONY: run dev soak test check migrate serve token routes psql bench bench-realtime bench-instructions lint typecheck format install clean-data help

run: node_modules ## install, start embedded Postgres (unless DATABASE_URL), migrate, seed, serve the example
	$(NODE) cli/run.ts --app $(APP) --dev

dev: node_modules ## watch mode: serve APP, swap in each saved schema or handler edit without a restart
	$(NODE) cli/dev.ts --app $(APP)

test: node_modules lint typecheck ## lint + typecheck + every test, ending with `N passed, N failed`
	$(NODE) test/run.ts

check: node_modules ## validate APP's schema: prints errors and warnings
	$(NODE) cli/check.ts --app $(APP)

migrate: node_modules ## write and apply APP's next migration (ALLOW_DATA_LOSS=1 to confirm drops)
	$(NODE) cli/migrate.ts --app $(APP)

serve: node_modules ## migrate and serve APP
	$(NODE) cli/run.ts --app $(APP)

lint: node_modules ## biome: lint and formatting check of the whole tree
	npx biome check .

format: node_modules ## biome: format the whole tree in place
	npx biome check --write .

typecheck: node_modules ## tsc --noEmit over the whole tree
	npx tsc --noEmit

install node_modules: package-lock.json ## npm ci, when node_modules is missing or older than package-lock.json
	@if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then npm ci; touch node_modules; fi

clean-data: ## remove APP's embedded Postgres data
	rm -rf $(APP)/.data

token: node_modules ## a development token for APP: make token CLAIMS='{"role":"member","userId":3,"companyId":1}'
	@$(NODE) cli/token.ts --app $(APP)

routes: node_modules ## list APP's routes: method, full path, type, roles, scopes, table or handler
	@$(NODE) cli/routes.ts --app $(APP)

psql: node_modules ## psql on APP's database (DATABASE_URL, or the embedded cluster)
	@$(NODE) cli/psql.ts --app $(APP)

# The list comes from the `## ` comments above: every target has one.
help: ## list the targets, one line each
	@awk -F':.*## ' '/^[a-z][a-z_ -]*:.*## / { split($$1, names, " "); printf "  %-11s %s\n", names[1], $$2 }' $(MAKEFILE_LIST)

bench: node_modules ## the gateway vs a hand-written Fastify + pg server, both apps at scale; writes docs/benchmarks.md
	BENCH_WRITE_DOCS=1 $(NODE) bench/run.ts
	BENCH_WRITE_DOCS=1 $(NODE) bench/realtime.ts
	BENCH_WRITE_DOCS=1 $(NODE) bench/instructions.ts

soak: node_modules ## not in make test: SOAK_MINUTES (10) of reads and writes at SOAK_RATE (100/s); prints errors and gateway memory
	$(NODE) bench/soak.ts

bench-realtime: node_modules ## realtime alone: insert cost of notify, fan-out to 1,000 and 5,000 subscribers; writes docs/benchmarks-realtime.md
	BENCH_WRITE_DOCS=1 $(NODE) bench/realtime.ts

bench-instructions: node_modules ## the database ceiling as instructions per call (callgrind): repeatable on a busy machine; writes docs/benchmarks-instructions.md
	BENCH_WRITE_DOCS=1 $(NODE) bench/instructions.ts
