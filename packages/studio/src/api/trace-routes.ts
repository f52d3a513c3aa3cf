import { sendJson } from "../http-json.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";

/** The in-process tracer's spans, for the waterfall (a `--trace` file is read in the page). */
export function traceRoutes({ spans }: StudioContext): Route[] {
  return [
    {
      method: "GET",
      path: "/api/traces",
      handle: ({ response, url }) =>
        sendJson(response, 200, {
          recording: spans !== undefined,
          spans: spans?.list(url.searchParams.get("trace") ?? undefined) ?? [],
        }),
    },
  ];
}
