// The conformance fixture's resources: static text and binary ones, a watched one to subscribe
// to, and a template whose reads echo the id they name.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { PNG } from "./fixture-media.js";

const RESOURCES = [
  { uri: "test://static-text", name: "static-text", mimeType: "text/plain" },
  { uri: "test://static-binary", name: "static-binary", mimeType: "image/png" },
  { uri: "test://watched-resource", name: "watched-resource", mimeType: "text/plain" },
];

/** Serve the resources, the template, reads and subscriptions on `server`. */
export function registerResources(server: Server): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: "test://template/{id}/data",
        name: "template-data",
        mimeType: "application/json",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (uri === "test://static-text")
      return {
        contents: [
          { uri, mimeType: "text/plain", text: "This is the content of the static text resource." },
        ],
      };
    if (uri === "test://static-binary")
      return { contents: [{ uri, mimeType: "image/png", blob: PNG }] };
    if (uri === "test://watched-resource")
      return { contents: [{ uri, mimeType: "text/plain", text: "Watched resource content." }] };
    const templated = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (templated) {
      const id = decodeURIComponent(templated[1] ?? "");
      return {
        contents: [
          {
            uri,
            mimeType: "application/json",
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      };
    }
    throw new McpError(-32602, "Resource not found", { uri });
  });

  server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
}
