// Two in-memory tools shaped like the built-in ones: a read-only read and a side-effect write.
import { createTestTool } from "@pseudoclaude/testing";

export function fileTools(source = "memory") {
  const read = createTestTool({
    name: "read_file",
    description: "Read a file.",
    safety: "read_only",
    source,
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    run: (args) => `contents of ${String(args.path)}`,
  });
  const write = createTestTool({
    name: "write_file",
    description: "Write a file.",
    safety: "side_effect",
    source,
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    run: () => "written",
  });
  return { read, write };
}
