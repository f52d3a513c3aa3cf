// What the rest of the plugin uses of the declarations: the schema converter, the mapping of
// tool names to places in the program's `tools` object, and the declaration block. The pieces
// they are built from stay internal.
export {
  DEFAULT_DECLARATIONS_CHARS,
  DEFAULT_TOOL_CHARS,
  type DeclaredTool,
  declaredOutputSchema,
  type RenderDeclarationsOptions,
  renderToolDeclarations,
  type ToolDeclarations,
} from "./render-declarations.js";
export {
  convertSchema,
  type SchemaToTypeOptions,
  schemaToType,
  type TypeText,
} from "./schema-to-type.js";
export { guestAccessor, guestSegments, PATH_SEPARATOR, toolNamespaces } from "./tool-namespace.js";
