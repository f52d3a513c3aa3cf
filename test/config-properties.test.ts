import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createAgent, type Diagnostic, loadConfig } from "@pseudoclaude/core";
import { DefaultRedactor, expandVariables } from "@pseudoclaude/core/plugin";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { hooks } from "@pseudoclaude/plugin-hooks";
import { loadServers, mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";
import fc from "fast-check";
import { stringify } from "yaml";

/**
 * Properties of the layered config under hostile input. One layer is valid by construction
 * (deny rules, a mode, MCP servers whose env uses `${VAR}`); the other is drawn broken: noise,
 * a valid file cut short, wrong types in every section, nesting deeper than the parser's stack,
 * an alias bomb, a huge list, a scalar instead of a mapping, bytes that are not text.
 * Whatever is drawn, and in either order of the layers: the agent is made, every problem is a
 * diagnostic naming the broken file and a line in it, nothing in the valid file is blamed, and
 * everything the valid layer says still applies.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);

const SECTIONS = [
  "permissions",
  "agent",
  "mcp_servers",
  "builtin_tools",
  "skills",
  "hooks",
  "provider",
  "tracing",
  "sessions",
  "typo_section",
];

const word = fc.stringMatching(/^[a-z][a-z0-9]{2,9}$/);

/** A valid layer and what it must still do once loaded next to a broken one. */
interface ValidLayer {
  text: string;
  denied: string[];
  mode: "default" | "plan" | "accept_edits" | "bypass";
  servers: Record<string, { env: Record<string, string>; expected: Record<string, string> }>;
}

const ENV: NodeJS.ProcessEnv = { PC_PROP_TOKEN: "tok-1", PC_PROP_EMPTY: "" };

const validLayer: fc.Arbitrary<ValidLayer> = fc
  .record({
    denied: fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
    mode: fc.constantFrom("default", "plan", "accept_edits", "bypass" as const),
    servers: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/), fc.tuple(word, word), {
      minKeys: 1,
      maxKeys: 3,
    }),
  })
  .map(({ denied, mode, servers }) => {
    const serverEntries: Record<string, unknown> = {};
    const expectedServers: ValidLayer["servers"] = {};
    for (const [name, [literal, fallback]] of Object.entries(servers)) {
      const env = {
        LITERAL: literal,
        TOKEN: "Bearer ${PC_PROP_TOKEN}",
        DEFAULTED: `\${PC_PROP_EMPTY:-${fallback}}`,
      };
      serverEntries[name] = { command: "node", args: ["server.js"], env };
      expectedServers[name] = {
        env,
        expected: { LITERAL: literal, TOKEN: "Bearer tok-1", DEFAULTED: fallback },
      };
    }
    const text = stringify({
      permissions: { mode, deny: denied.map((command) => `run_command(${command}*)`) },
      agent: { max_turns: 7 },
      mcp_servers: serverEntries,
    });
    return { text, denied, mode, servers: expectedServers };
  });

/** A value of any JSON type, to put where a section expects its own shape. */
const junk = fc.jsonValue({ maxDepth: 4 });

const brokenLayer: fc.Arbitrary<string> = fc.oneof(
  // Syntax noise.
  fc.string({
    unit: fc.constantFrom(..."{}[]:,-?&*!|>'\"%@`#\t\n  abc1".split("")),
    maxLength: 200,
  }),
  // Wrong types in the sections everyone reads.
  fc
    .dictionary(fc.constantFrom(...SECTIONS), junk, { maxKeys: 6 })
    .map((value) => stringify(value)),
  // A valid file cut short, with an unclosed flow collection after it.
  fc.dictionary(fc.constantFrom(...SECTIONS), junk, { minKeys: 1, maxKeys: 4 }).chain((value) => {
    const text = stringify(value);
    return fc.nat(text.length).map((cut) => `${text.slice(0, cut)}\nagent: [1, {`);
  }),
  // Nesting deeper than the parser's stack, as flow and block collections.
  fc
    .integer({ min: 50, max: 4000 })
    .map((depth) => `agent: ${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc
    .integer({ min: 50, max: 1500 })
    .map((depth) => Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")),
  // A billion laughs.
  fc.integer({ min: 4, max: 9 }).map((levels) => {
    const lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < levels; i++)
      lines.push(
        `l${i}: &l${i} [${Array(9)
          .fill(`*l${i - 1}`)
          .join(", ")}]`,
      );
    return `${lines.join("\n")}\npermissions: *l${levels - 1}\n`;
  }),
  // Huge: a list of wrong-typed rules, and a long mapping of unknown keys.
  fc
    .integer({ min: 1000, max: 30000 })
    .map((count) => `permissions:\n  deny:\n${"    - 12345\n".repeat(count)}`),
  fc
    .integer({ min: 100, max: 5000 })
    .map((count) => Array.from({ length: count }, (_, i) => `key_${i}: ${i}`).join("\n")),
  // Duplicate keys, tabs for indentation, a scalar or a list for the whole file.
  fc.constant("agent:\n  max_turns: 1\nagent:\n  max_turns: 2\n"),
  fc.constant("permissions:\n\tdeny:\n\t\t- x\n"),
  junk
    .filter((value) => typeof value !== "object" || Array.isArray(value))
    .map((v) => stringify(v)),
  // Bytes that are not UTF-8 text.
  fc
    .uint8Array({ minLength: 1, maxLength: 300 })
    .map((bytes) => Buffer.from(bytes).toString("latin1")),
);

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "pc-config-prop-"));
});
after(() => rm(dir, { recursive: true, force: true }));

let runIndex = 0;

/** Both layers on disk: the user file under a fake home, the project file in a workspace. */
async function writeLayers(userText: string, projectText: string) {
  const root = path.join(dir, `run-${runIndex++}`);
  const home = path.join(root, "home");
  const workspace = path.join(root, "workspace");
  const userFile = path.join(home, ".PseudoClaude", "config.yaml");
  const projectFile = path.join(workspace, ".PseudoClaude", "config.yaml");
  await mkdir(path.dirname(userFile), { recursive: true });
  await mkdir(path.dirname(projectFile), { recursive: true });
  await writeFile(userFile, userText);
  await writeFile(projectFile, projectText);
  return { root, home, workspace, userFile, projectFile };
}

function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

describe("property: config layers under hostile input", () => {
  it("a broken layer is diagnosed at its file and line and never costs the valid one anything", {
    timeout: 600_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        validLayer,
        brokenLayer,
        fc.boolean(),
        async (valid, broken, validIsUser) => {
          const files = await writeLayers(
            validIsUser ? valid.text : broken,
            validIsUser ? broken : valid.text,
          );
          const validFile = validIsUser ? files.userFile : files.projectFile;
          const brokenFile = validIsUser ? files.projectFile : files.userFile;
          const brokenLines = lineCount(await readFile(brokenFile, "utf8"));
          try {
            const config = loadConfig({ workspace: files.workspace, homeDir: files.home });
            const agent = await createAgent({
              workspace: files.workspace,
              // Diagnosed rather than thrown, so what the valid layer says can be checked; and
              // the user consented to the workspace's layer, so a valid one applies whole.
              config: { loaded: config, onError: "diagnose" },
              projectApprovals: "all",
              plugins: [
                builtinTools(),
                // The valid layer's servers are replaced in code, so none is spawned here;
                // loadServers below reads the files alone.
                mcp({
                  mcpJson: false,
                  servers: Object.fromEntries(
                    Object.keys(valid.servers).map((name) => [
                      name,
                      { command: "node", enabled: false },
                    ]),
                  ),
                }),
                skills(),
                hooks(),
              ],
            });
            let diagnostics: readonly Diagnostic[];
            try {
              diagnostics = agent.diagnostics();
              // Everything the valid layer says still applies: its mode (the broken layer can
              // set none) and every deny rule, which no allow in the other layer can lift.
              assert.equal(agent.mode, valid.mode);
              for (const command of valid.denied) {
                const outcome = await agent.callTool("run_command", { command: `${command} now` });
                assert.equal(outcome.result.ok, false, `${command} ran`);
                assert.equal(outcome.result.error?.code, "denied", JSON.stringify(outcome.result));
              }
            } finally {
              await agent.close();
            }

            for (const diagnostic of diagnostics) {
              if (diagnostic.file === undefined) continue;
              // Nothing in the valid file is an error, and every problem is placed in its file.
              if (diagnostic.severity === "error")
                assert.notEqual(
                  diagnostic.file,
                  validFile,
                  `valid layer blamed: ${diagnostic.message}`,
                );
              if (diagnostic.file === brokenFile) {
                assert.ok(
                  Number.isInteger(diagnostic.line) && (diagnostic.line ?? 0) >= 1,
                  `no line: ${JSON.stringify(diagnostic)}`,
                );
                assert.ok(
                  (diagnostic.line ?? 0) <= brokenLines + 1,
                  `line ${diagnostic.line} past the end of ${brokenLines} lines`,
                );
                assert.ok(diagnostic.message.length > 0);
              }
            }
            const brokenLayerLoaded = config.layers.find((layer) => layer.file === brokenFile);
            if (brokenLayerLoaded?.data === undefined)
              assert.ok(
                diagnostics.some((d) => d.file === brokenFile && d.severity === "error"),
                "a layer was ignored without a diagnostic",
              );

            // The valid layer's servers are all there, `${VAR}` expanded in their env.
            const loaded = loadServers(config, {
              workspace: files.workspace,
              redactor: new DefaultRedactor(),
              env: ENV,
              mcpJson: false,
              consent: { isApproved: () => true },
            });
            for (const [name, server] of Object.entries(valid.servers)) {
              const found = loaded.servers.find((candidate) => candidate.name === name);
              assert.ok(found, `server ${name} lost`);
              assert.ok(found.transport === "stdio");
              assert.deepEqual(found.env, server.expected, `server ${name}'s env`);
            }
            for (const diagnostic of loaded.diagnostics)
              if (diagnostic.severity === "error") assert.notEqual(diagnostic.file, validFile);
          } finally {
            await rm(files.root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("`${VAR}` expands each reference once, to its value, its default or nothing", () => {
    const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,8}$/);
    // Literal text may hold `$`, `{` and `}`, but never a reference, alone or with a neighbour.
    const literal = fc
      .string({ unit: fc.constantFrom(..."ab $}{-:".split("")), maxLength: 12 })
      .filter((text) => !text.includes("${") && !text.endsWith("$"));
    const fallback = fc.string({ unit: fc.constantFrom(..."xyz ${".split("")), maxLength: 6 });
    const part = fc.oneof(
      literal.map((text) => ({ kind: "text" as const, text })),
      fc.record({
        kind: fc.constant("ref" as const),
        name,
        fallback: fc.option(fallback, { nil: undefined }),
      }),
    );
    // Values may themselves look like references: they must not be expanded again.
    const value = fc.oneof(fc.constant(""), fc.constant("${HOME}"), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), fc.dictionary(name, value), (parts, env) => {
        let template = "";
        let expected = "";
        const missing: string[] = [];
        for (const piece of parts) {
          if (piece.kind === "text") {
            template += piece.text;
            expected += piece.text;
            continue;
          }
          template +=
            piece.fallback === undefined
              ? `\${${piece.name}}`
              : `\${${piece.name}:-${piece.fallback}}`;
          const found = env[piece.name];
          if (found !== undefined && found !== "") expected += found;
          else if (piece.fallback !== undefined) expected += piece.fallback;
          else missing.push(piece.name);
        }
        const result = expandVariables(template, env);
        assert.equal(result.value, expected, `template ${JSON.stringify(template)}`);
        assert.deepEqual(result.missing, missing);
        assert.equal(
          result.substituted,
          parts.some((piece) => piece.kind === "ref"),
        );
      }),
      { numRuns: RUNS * 20 },
    );
  });
});
