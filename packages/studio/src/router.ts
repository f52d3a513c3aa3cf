import type { IncomingMessage, ServerResponse } from "node:http";

/** What a route's handler gets: the request, its URL and the `:name` parts of its path. */
export interface RouteRequest {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  /** `/api/tools/:name/call`: a `:name` part matches one path segment, URL-decoded. */
  path: string;
  handle(request: RouteRequest): Promise<void> | void;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
}

/** Routes by method and path; the first that matches handles the request. */
export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => {
      const names: string[] = [];
      const source = route.path
        .split("/")
        .map((part) => {
          if (!part.startsWith(":")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
          names.push(part.slice(1));
          return "([^/]+)";
        })
        .join("/");
      return { ...route, pattern: new RegExp(`^${source}$`), names };
    });
  }

  /** The route for a request, or `allowed` methods when only the method is wrong. */
  find(
    method: string,
    pathname: string,
  ): { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined {
    const allowed: string[] = [];
    for (const route of this.routes) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => {
        params[name] = decodeURIComponent(match[index + 1] ?? "");
      });
      return { route, params };
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}
