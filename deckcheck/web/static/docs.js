// Starts Swagger UI on /docs; a file, not an inline script, so the page's CSP can forbid those.
"use strict";
// Swagger UI's own script (loaded before this one) defines the global SwaggerUIBundle.
window.addEventListener("load", () => {
  const page = /** @type {any} */ (window);
  page.ui = page.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });
});
