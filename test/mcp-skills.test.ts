// Skills over MCP (SEP-2640): a real server on the 1.x SDK, over real stdio and Streamable
// HTTP, serves skills; the MCP plugin lists them into the kernel's skill catalog and the Skills
// plugin offers and loads them. Each test starts its servers inside try/finally and closes
// the agent (which ends the stdio child) and the HTTP server process.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { type Agent, createAgent, textOf } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";
import {
  LOAD_SKILL,
  READ_SKILL_FILE,
  SkillsManager,
  type SkillsOptions,
  skills,
} from "@pseudoclaude/plugin-skills";
import { startHttpServer } from "@pseudoclaude/testing/system";
import { fixture, scratch } from "#mcp-test/mcp-fixtures.js";

const PDF = "mcp:docs/pdf-processing";
const RELEASE = "mcp:docs/acme/ops/release";

type Transport = "stdio" | "http";

interface Served {
  agent: Agent;
  manager: SkillsManager;
  /** What reached the server: `skills/list`, `read <uri>`. */
  lines(): Promise<string[]>;
}

/**
 * An agent with the MCP, Skills and built-in plugins and one skills server named `docs` over
 * `transport`, serving its skills `tamper`ed or not; `run` gets it, everything ends after.
 */
async function withSkillsServer(
  transport: Transport,
  options: { tamper?: string; skills?: SkillsOptions; noTools?: boolean },
  run: (served: Served) => Promise<void>,
): Promise<void> {
  const logs = await scratch();
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pc-mcp-skills-"));
  const env = {
    FIXTURE_LOG: logs.log,
    FIXTURE_SKILLS_TAMPER: options.tamper ?? "",
    FIXTURE_NO_TOOLS: options.noTools ? "1" : "",
  };
  let http: Awaited<ReturnType<typeof startHttpServer>> | undefined;
  let agent: Agent | undefined;
  try {
    let server: McpServerEntry;
    if (transport === "http") {
      http = await startHttpServer({
        script: fixture("skills"),
        env: { ...env, FIXTURE_TRANSPORT: "http" },
      });
      server = { type: "http", url: http.url("/mcp") };
    } else server = { type: "stdio", command: process.execPath, args: [fixture("skills")], env };
    agent = await createAgent({
      config: false,
      workspace,
      plugins: [
        mcp({ servers: { docs: server } }),
        skills({ homeDir: workspace, watch: false, ...options.skills }),
        builtinTools(),
      ],
    });
    const manager = agent.resolve<SkillsManager>(SkillsManager);
    await manager.refresh();
    await run({ agent, manager, lines: logs.lines });
  } finally {
    await agent?.close();
    await http?.stop();
    await rm(workspace, { recursive: true, force: true });
    await logs.cleanup();
  }
}

const reads = (lines: readonly string[]) => lines.filter((line) => line.startsWith("read "));

/** Load through the model's tool, as the model does. */
async function loadSkill(agent: Agent, name: string) {
  return (await agent.callTool(LOAD_SKILL, { name })).result;
}

describe("Skills over MCP (SEP-2640)", () => {
  for (const transport of ["stdio", "http"] as const) {
    it(`lists a server's skills in the index as their own layer, reading no file (${transport})`, async () => {
      await withSkillsServer(transport, {}, async ({ agent, manager, lines }) => {
        const served = manager.list().filter((skill) => skill.layer === "mcp:docs");
        assert.deepEqual(served.map((skill) => [skill.name, skill.state]).sort(), [
          [RELEASE, "available"],
          [PDF, "available"],
        ]);
        assert.equal(manager.get(PDF)?.path, "skill://pdf-processing/SKILL.md");
        assert.equal(manager.get(PDF)?.origin, 'MCP server "docs"');
        const prompt = agent.systemPrompt();
        assert.match(
          prompt,
          /- mcp:docs\/pdf-processing: Extract, fill, and assemble PDF documents \[MCP server "docs" skill:\/\/pdf-processing\/SKILL\.md\]/,
        );
        const enumOf = agent.registry.get(LOAD_SKILL)?.definition.inputSchema as {
          properties: { name: { enum: string[] } };
        };
        assert.ok(enumOf.properties.name.enum.includes(PDF), "load_skill offers it");
        const seen = await lines();
        assert.ok(seen.includes("skills/list"), `the server was asked: ${seen.join(", ")}`);
        assert.deepEqual(reads(seen), [], "no file is read before the skill is loaded");
      });
    });

    it(`loads a served skill: SKILL.md read and verified, other files only when asked (${transport})`, async () => {
      await withSkillsServer(transport, {}, async ({ agent, manager, lines }) => {
        const loaded = await loadSkill(agent, PDF);
        assert.equal(loaded.ok, true, JSON.stringify(loaded));
        const text = textOf(loaded.content);
        assert.match(text, /Fill the form with the fields in references\/FORMS\.md/);
        assert.match(text, /Served by MCP server "docs" \(skill:\/\/pdf-processing\/SKILL\.md\)/);
        const listedSize = Number(text.match(/references\/FORMS\.md \((\d+) bytes\)/)?.[1]);
        assert.equal(manager.get(PDF)?.state, "loaded");
        assert.deepEqual(reads(await lines()), ["read skill://pdf-processing/SKILL.md"]);
        const file = (
          await agent.callTool(READ_SKILL_FILE, { skill: PDF, path: "references/FORMS.md" })
        ).result;
        assert.equal(file.ok, true, JSON.stringify(file));
        assert.equal(textOf(file.content), "Form fields: name, date, signature.\n");
        assert.equal(Buffer.byteLength(textOf(file.content)), listedSize, "listed size, not read");
        assert.deepEqual(reads(await lines()), [
          "read skill://pdf-processing/SKILL.md",
          "read skill://pdf-processing/references/FORMS.md",
        ]);
        const unlisted = (
          await agent.callTool(READ_SKILL_FILE, { skill: PDF, path: "references/SECRET.md" })
        ).result;
        assert.equal(unlisted.ok, false);
        assert.match(
          unlisted.error?.message ?? "",
          /"references\/SECRET\.md" is not one of the skill's listed files/,
        );
        assert.equal(reads(await lines()).length, 2, "an unlisted file is never asked for");
      });
    });
  }

  it("connects a server that offers skills alone (no tools capability): no tools asked for, its skills listed", async () => {
    await withSkillsServer("stdio", { noTools: true }, async ({ agent, manager }) => {
      const source = agent.sources().find((entry) => entry.id === "mcp:docs");
      assert.equal(source?.status.state, "ready", JSON.stringify(agent.diagnostics()));
      assert.equal(
        agent.registry.list().filter((tool) => tool.definition.source === "mcp:docs").length,
        0,
      );
      assert.ok(manager.list().some((skill) => skill.name === PDF));
    });
  });

  it("refuses a SKILL.md whose digest differs from the listing, naming server, skill and both digests", async () => {
    await withSkillsServer("stdio", { tamper: "digest" }, async ({ agent, manager, lines }) => {
      const loaded = await loadSkill(agent, PDF);
      assert.equal(loaded.ok, false);
      const message = loaded.error?.message ?? "";
      assert.match(message, /MCP server "docs", skill "pdf-processing"/);
      assert.match(
        message,
        /skill:\/\/pdf-processing\/SKILL\.md has digest sha256:[0-9a-f]{64}, but the server's listing says sha256:[0-9a-f]{64}; the content is not used/,
      );
      assert.doesNotMatch(message, /Mail the keys/, "nothing of the content is shown");
      assert.equal(manager.get(PDF)?.state, "available", "not loaded");
      const file = (
        await agent.callTool(READ_SKILL_FILE, { skill: PDF, path: "references/FORMS.md" })
      ).result;
      assert.equal(file.ok, false, "no file of a refused skill is read");
      assert.deepEqual(reads(await lines()), ["read skill://pdf-processing/SKILL.md"]);
    });
  });

  it("refuses a SKILL.md whose size differs from the listing (Streamable HTTP)", async () => {
    await withSkillsServer("http", { tamper: "size" }, async ({ agent, manager }) => {
      const loaded = await loadSkill(agent, PDF);
      assert.equal(loaded.ok, false);
      const sizes = (loaded.error?.message ?? "").match(
        /MCP server "docs", skill "pdf-processing": skill:\/\/pdf-processing\/SKILL\.md is (\d+) bytes, but the server's listing says (\d+); the content is not used/,
      );
      assert.ok(sizes, loaded.error?.message);
      assert.ok(Number(sizes[1]) > Number(sizes[2]), "the bytes the server added are counted");
      assert.equal(manager.get(PDF)?.state, "available");
    });
  });

  it("refuses a SKILL.md whose front matter differs from the listed one, field by field", async () => {
    await withSkillsServer("stdio", { tamper: "frontmatter" }, async ({ agent, manager }) => {
      const loaded = await loadSkill(agent, PDF);
      assert.equal(loaded.ok, false);
      assert.match(
        loaded.error?.message ?? "",
        /its SKILL\.md front matter differs from what the server listed \(description: listed "Extract, fill, and assemble PDF documents", file "Exfiltrate credentials"\)/,
      );
      assert.equal(manager.get(PDF)?.state, "available");
    });
  });

  it("refuses a SKILL.md whose front matter breaks the skill format (same rules as a folder's)", async () => {
    await withSkillsServer("http", { tamper: "bad-frontmatter" }, async ({ agent, manager }) => {
      const loaded = await loadSkill(agent, PDF);
      assert.equal(loaded.ok, false);
      assert.match(
        loaded.error?.message ?? "",
        /skill:\/\/pdf-processing\/SKILL\.md:\d+:\d+: the front matter is not valid YAML/,
      );
      assert.equal(manager.get(PDF)?.state, "available");
    });
  });

  it("ignores a served skill's allowed-tools until the user approves that server's skills", async () => {
    await withSkillsServer("stdio", {}, async ({ agent, manager }) => {
      const skill = manager.get(RELEASE);
      assert.deepEqual(skill?.permissions, ["run_command(git log*)", "read_file"]);
      assert.equal(skill?.allowedToolsHonoured, false);
      assert.ok(
        agent
          .diagnostics()
          .some(
            (diagnostic) =>
              diagnostic.code === "skill_allowed_tools_untrusted" &&
              diagnostic.message.includes("skills.trusted: [mcp:docs]"),
          ),
      );
      assert.equal((await loadSkill(agent, RELEASE)).ok, true);
      const call = await agent.callTool("run_command", { command: "git log -1" });
      assert.equal(call.decision.verdict, "ask", "not pre-approved by the server's word");
    });
    await withSkillsServer(
      "stdio",
      { skills: { trusted: ["mcp:docs"] } },
      async ({ agent, manager }) => {
        assert.equal(manager.get(RELEASE)?.allowedToolsHonoured, true);
        const before = await agent.callTool("run_command", { command: "git log -1" });
        assert.equal(before.decision.verdict, "ask", "nothing before the skill is loaded");
        assert.equal((await loadSkill(agent, RELEASE)).ok, true);
        const call = await agent.callTool("run_command", { command: "git log -1" });
        assert.equal(call.decision.verdict, "allow");
        assert.deepEqual(call.decision.matched, {
          kind: "layer",
          effect: "allow",
          origin: `skill:${RELEASE}`,
          patterns: ["run_command(git log*)"],
        });
      },
    );
  });
});
