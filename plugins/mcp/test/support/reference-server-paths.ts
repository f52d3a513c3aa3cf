// Where the official reference MCP servers' entry scripts are installed (the repository's own
// node_modules; this file runs from plugins/mcp/dist/test/support).
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const serverPackage = (name: string) =>
  path.join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");
export const EVERYTHING = serverPackage("server-everything");
export const FILESYSTEM = serverPackage("server-filesystem");
export const MEMORY = serverPackage("server-memory");
