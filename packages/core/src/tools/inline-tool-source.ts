/** The source id of tools given to `createAgent({ tools })` that name no source of their own. */
export const INLINE_TOOL_SOURCE = "code";
