# The two commands a new user needs: `make run` (the example app) and `make test`.
# APP selects the application directory for check/migrate/serve (default: the example app).

APP ?= example
NODE := node --import tsx
export APP

.PHONY: run test check migrate serve token bench lint typecheck format install clean-data

run: node_modules ## install, start embedded Postgres (unless DATABASE_URL), migrate, seed, serve the example
	$(NODE) cli/run.ts --app $(APP) --dev

test: node_modules lint typecheck ## lint + typecheck + every test, ending with `N passed, N failed`
	$(NODE) test/run.ts

check: node_modules ## validate APP's schema: prints errors and warnings
	$(NODE) cli/check.ts --app $(APP)

migrate: node_modules ## write and apply APP's next migration (ALLOW_DATA_LOSS=1 to confirm drops)
	$(NODE) cli/migrate.ts --app $(APP)

serve: node_modules ## migrate and serve APP
	$(NODE) cli/run.ts --app $(APP)

lint: node_modules
	npx biome check .

format: node_modules
	npx biome check --write .

typecheck: node_modules
	npx tsc --noEmit

install node_modules: package-lock.json
	@if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then npm ci; touch node_modules; fi

clean-data: ## remove APP's embedded Postgres data
	rm -rf $(APP)/.data

token: node_modules ## a development token: make token CLAIMS='{"role":"member","userId":3,"companyId":1}'
	@$(NODE) cli/token.ts --app $(APP)

bench: node_modules ## the gateway vs a hand-written Fastify + pg server, both apps at scale; writes docs/benchmarks.md
	BENCH_WRITE_DOCS=1 $(NODE) bench/run.ts
