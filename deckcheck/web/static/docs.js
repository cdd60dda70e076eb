// Starts Swagger UI on /docs; a file, not an inline script, so the page's CSP can forbid those.
"use strict";
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });
});
