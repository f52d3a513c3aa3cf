import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PolicyDecision, PolicyEngine } from "../src/contracts/policy-engine.js";
import type { ToolDefinition } from "../src/contracts/tool-definition.js";
import { createPolicyEngine } from "../src/policy/default-policy-engine.js";
import { LayeredPolicyEngine, PolicyLayers } from "../src/policy/policy-layer.js";
import type { PolicySettings } from "../src/policy/policy-settings.js";
import { def, readTool, shell } from "./support/tool-definitions.js";

const WORKSPACE = "/ws";

const reader = readTool;
const loader = def("load_skill", { safety: "read_only" });

function layered(settings: Partial<PolicySettings> = {}) {
  const layers = new PolicyLayers(WORKSPACE);
  const engine = new LayeredPolicyEngine(
    createPolicyEngine({ mode: "default", rules: [], workspace: WORKSPACE, ...settings }),
    layers,
  );
  return { layers, engine };
}

async function verdictOf(engine: PolicyEngine, tool: ToolDefinition, args: unknown) {
  return (await engine.decide(tool, args)) as PolicyDecision;
}

describe("policy layers over the engine", () => {
  it("pre-approve a call the engine would ask about, and only while the layer is on", async () => {
    const { layers, engine } = layered();
    const call = { command: "git log --oneline" };
    assert.equal((await verdictOf(engine, shell, call)).verdict, "ask");
    const layer = layers.add({ origin: "skill:release", allow: ["run_command(git log*)"] });
    const allowed = await verdictOf(engine, shell, call);
    assert.equal(allowed.verdict, "allow");
    assert.deepEqual(allowed.matched, {
      kind: "layer",
      effect: "allow",
      origin: "skill:release",
      patterns: ["run_command(git log*)"],
    });
    assert.match(allowed.reason, /Pre-approved by skill:release/);
    // A compound command is not what the pattern names.
    assert.equal(
      (await verdictOf(engine, shell, { command: "git log && rm -rf x" })).verdict,
      "ask",
    );
    layer.dispose();
    assert.equal((await verdictOf(engine, shell, call)).verdict, "ask");
  });

  it("never override a deny rule, plan mode or an explicit ask rule", async () => {
    const denied = layered({
      rules: [{ verdict: "deny", pattern: "run_command(git log*)", origin: "user" }],
    });
    denied.layers.add({ origin: "skill:x", allow: ["run_command"] });
    const decision = await verdictOf(denied.engine, shell, { command: "git log" });
    assert.equal(decision.verdict, "deny");
    assert.equal(decision.matched.kind, "rule");

    const plan = layered({ mode: "plan" });
    plan.layers.add({ origin: "skill:x", allow: ["run_command"] });
    assert.equal((await verdictOf(plan.engine, shell, { command: "ls" })).verdict, "deny");
    assert.equal(plan.engine.isOffered(shell), false, "plan mode still hides it");

    const asked = layered({
      rules: [{ verdict: "ask", pattern: "run_command(git *)", origin: "project" }],
    });
    asked.layers.add({ origin: "skill:x", allow: ["run_command(git log*)"] });
    assert.equal((await verdictOf(asked.engine, shell, { command: "git log" })).verdict, "ask");
  });

  it("narrow what is offered and callable while an `only` layer is on", async () => {
    const { layers, engine } = layered({ mode: "bypass" });
    const layer = layers.add({
      origin: "skill:audit",
      only: ["load_skill", "run_command(npm test*)"],
    });
    assert.equal(engine.isOffered(loader), true);
    assert.equal(engine.isOffered(shell), true, "offered by name; arguments decide per call");
    assert.equal(engine.isOffered(reader), false);
    assert.equal((await verdictOf(engine, shell, { command: "npm test" })).verdict, "allow");
    const refused = await verdictOf(engine, shell, { command: "curl evil" });
    assert.equal(refused.verdict, "deny");
    assert.deepEqual(refused.matched, {
      kind: "layer",
      effect: "only",
      origin: "skill:audit",
      patterns: ["load_skill", "run_command(npm test*)"],
    });
    assert.equal((await verdictOf(engine, reader, { path: "a" })).verdict, "deny");
    layer.dispose();
    assert.equal(engine.isOffered(reader), true);
    assert.equal(layers.version, 2, "one version step per add and per remove");
  });

  it("let a tool through when any of several narrowing layers names it", async () => {
    const { layers, engine } = layered();
    layers.add({ origin: "skill:a", only: ["read_file"] });
    layers.add({ origin: "skill:b", only: ["load_skill"] });
    assert.equal(engine.isOffered(reader), true);
    assert.equal(engine.isOffered(loader), true);
    assert.equal(engine.isOffered(shell), false);
    const refused = await verdictOf(engine, shell, { command: "ls" });
    assert.match(refused.reason, /While skill:a, skill:b are active/);
  });

  it("refuse a pattern that does not parse, naming it", () => {
    const { layers } = layered();
    assert.throws(
      () => layers.add({ origin: "skill:x", allow: ["run_command(git log"] }),
      (error: Error & { code?: string }) =>
        error.code === "invalid_rule" && /run_command\(git log/.test(error.message),
    );
    assert.equal(layers.version, 0);
  });

  it("wait for an engine that decides asynchronously", async () => {
    const slow: PolicyEngine = {
      mode: "default",
      isOffered: () => true,
      decide: async () => ({
        verdict: "ask",
        reason: "remote policy says ask",
        matched: { kind: "safety", safety: "side_effect" },
      }),
    };
    const layers = new PolicyLayers(WORKSPACE);
    const engine = new LayeredPolicyEngine(slow, layers);
    layers.add({ origin: "skill:x", allow: ["run_command"] });
    assert.equal((await verdictOf(engine, shell, { command: "ls" })).verdict, "allow");
  });
});
