import { estimateRequestTokens, PERMISSION_MODES, type PermissionMode } from "@pseudoclaude/core";
import { readJsonBody, requireString, StudioHttpError, sendJson } from "../http-json.js";
import type { Route } from "../router.js";
import type { StudioContext } from "../studio-context.js";

/** The agent itself: its settings, the live feed, mode, diagnostics and the questions waiting. */
export function agentRoutes(context: StudioContext): Route[] {
  const { agent, desk, hub } = context;
  return [
    {
      method: "GET",
      path: "/api/agent",
      handle: ({ response }) => {
        // As the next request sends it: plugins' sections (an MCP server's instructions) come
        // and go while the studio runs.
        const systemPrompt = agent.systemPrompt();
        sendJson(response, 200, {
          workspace: agent.workspace,
          provider: agent.provider?.name ?? null,
          model: agent.provider?.model ?? null,
          mode: agent.mode,
          modes: PERMISSION_MODES,
          sessionId: agent.sessionId ?? null,
          tools: agent.registry.definitions().length,
          offered: agent.offeredTools().length,
          sources: agent.sources(),
          running: context.runs.running()?.id ?? null,
          systemPrompt,
          // Estimated as the agent estimates a request, so it adds up with the Tools page's.
          systemPromptTokens: estimateRequestTokens({
            system: systemPrompt,
            messages: [],
            tools: [],
          }),
          conversationLength: agent.conversation.length,
        });
      },
    },
    {
      method: "GET",
      path: "/api/events",
      handle: ({ response }) => hub.attach(response),
    },
    {
      method: "GET",
      path: "/api/diagnostics",
      handle: ({ response }) => sendJson(response, 200, { diagnostics: agent.diagnostics() }),
    },
    {
      method: "POST",
      path: "/api/mode",
      async handle({ request, response }) {
        const mode = requireString(await readJsonBody(request), "mode");
        if (!(PERMISSION_MODES as readonly string[]).includes(mode))
          throw new StudioHttpError(
            400,
            "invalid_mode",
            `"${mode}" is not a mode; one of ${PERMISSION_MODES.join(", ")}.`,
          );
        agent.setMode(mode as PermissionMode);
        hub.publish({ type: "mode", mode: agent.mode });
        sendJson(response, 200, { mode: agent.mode });
      },
    },
    {
      method: "GET",
      path: "/api/approvals",
      handle: ({ response }) =>
        sendJson(response, 200, { pending: desk.pending(), sessionRules: desk.rules.list() }),
    },
    {
      method: "POST",
      path: "/api/approvals/:id",
      async handle({ request, response, params }) {
        const body = await readJsonBody(request);
        const verdict = requireString(body, "verdict");
        if (verdict !== "allow" && verdict !== "allow_session" && verdict !== "deny")
          throw new StudioHttpError(
            400,
            "invalid_verdict",
            `"verdict" must be allow, allow_session or deny (got "${verdict}").`,
          );
        const reason = typeof body.reason === "string" ? body.reason : undefined;
        if (!desk.answerApproval(params.id ?? "", { verdict, reason }))
          throw new StudioHttpError(
            404,
            "approval_not_found",
            `No approval ${params.id} is waiting (answered already, or its call was cancelled).`,
          );
        sendJson(response, 200, { id: params.id, verdict });
      },
    },
    {
      method: "POST",
      path: "/api/elicitations/:id",
      async handle({ request, response, params }) {
        const body = await readJsonBody(request);
        const action = requireString(body, "action");
        if (action !== "accept" && action !== "decline" && action !== "cancel")
          throw new StudioHttpError(
            400,
            "invalid_action",
            `"action" must be accept, decline or cancel (got "${action}").`,
          );
        const content =
          typeof body.content === "object" && body.content !== null
            ? (body.content as Record<string, string | number | boolean | string[]>)
            : undefined;
        if (!desk.answerElicitation(params.id ?? "", { action, content }))
          throw new StudioHttpError(
            404,
            "elicitation_not_found",
            `No question ${params.id} is waiting (answered already, or cancelled).`,
          );
        sendJson(response, 200, { id: params.id, action });
      },
    },
  ];
}
