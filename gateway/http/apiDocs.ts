// The API's own description: `GET /openapi.json` (the OpenAPI 3.1 document built from the model,
// generator/output/openapi.ts) and `GET /docs`, a reference page rendering it with Swagger UI.
// The page's assets come from the `swagger-ui-dist` package, read once at start-up and served
// here, so the page works without any network beyond the gateway. `API_DOCS=0` turns both off.
// Routes are registered before the app's own: a schema route at the same path fails start-up.

import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Model } from "../../generator/model/index.ts";
import { openApiDocument } from "../../generator/output/index.ts";

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PATH = "/docs";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
};

// No inline script: the page works under a strict Content-Security-Policy.
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/swagger-ui-standalone-preset.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// validatorUrl: null keeps Swagger UI from sending the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout",
});
`;

export function registerApiDocs(app: FastifyInstance, model: Model): void {
  const document = JSON.stringify(openApiDocument(model));
  app.get(OPENAPI_PATH, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").header("cache-control", "no-cache").send(document),
  );
  const dist = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const page =
    (type: string, body: string | Buffer) =>
    async (_request: unknown, reply: import("fastify").FastifyReply) =>
      reply.type(type).header("cache-control", "no-cache").send(body);
  app.get(DOCS_PATH, page("text/html; charset=utf-8", PAGE));
  app.get(`${DOCS_PATH}/init.js`, page("text/javascript; charset=utf-8", INIT));
  for (const [file, type] of Object.entries(ASSETS)) {
    app.get(`${DOCS_PATH}/${file}`, page(type, fs.readFileSync(path.join(dist, file))));
  }
}
