type Library = typeof import("@modelcontextprotocol/ext-tasks/client");
let library: Library | undefined;

/**
 * The official MCP Tasks library (`@modelcontextprotocol/ext-tasks`), loaded with the first
 * task call: the MCP plugin loads no SDK until a server needs one.
 */
export async function loadTasksLibrary(): Promise<Library> {
  library ??= await import("@modelcontextprotocol/ext-tasks/client");
  return library;
}

/** The library once a task call loaded it (a session's port is made after that). */
export function loadedTasksLibrary(): Library {
  if (!library) throw new Error("The MCP Tasks library was not loaded before its first port.");
  return library;
}
