import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { expandVariables } from "../src/config/expand-variables.js";
import { loadConfig } from "../src/config/load-config.js";
import { validateSection } from "../src/config/validate-section.js";

let base: string;
let workspace: string;
let home: string;

async function writeLayer(dir: string, text: string): Promise<string> {
  const file = path.join(dir, ".PseudoClaude", "config.yaml");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

before(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "pc-config-"));
  workspace = path.join(base, "ws");
  home = path.join(base, "home");
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
});
after(() => rm(base, { recursive: true, force: true }));

describe("layered config", () => {
  it("treats missing files as empty layers without diagnostics", () => {
    const config = loadConfig({
      workspace: path.join(base, "nowhere"),
      homeDir: path.join(base, "nohome"),
    });
    assert.deepEqual(config.diagnostics, []);
    assert.deepEqual(config.section("permissions"), []);
  });

  it("reads the user layer before the project layer", async () => {
    await writeLayer(home, "agent:\n  max_turns: 3\n");
    await writeLayer(workspace, "agent:\n  max_turns: 5\n");
    const config = loadConfig({ workspace, homeDir: home });
    assert.deepEqual(
      config
        .section<{ max_turns: number }>("agent")
        .map((entry) => [entry.layer, entry.value.max_turns]),
      [
        ["user", 3],
        ["project", 5],
      ],
    );
  });

  it("reports broken YAML with file, line and column and keeps the other layer", async () => {
    const userFile = await writeLayer(home, "agent:\n  max_turns: 3\n");
    const projectFile = await writeLayer(workspace, "agent:\n  max_turns: [1, 2\nother: x\n");
    const config = loadConfig({ workspace, homeDir: home });
    assert.deepEqual(
      config.section("agent").map((entry) => entry.file),
      [userFile],
    );
    const broken = config.diagnostics.filter((d) => d.file === projectFile);
    assert.ok(broken.length >= 1, "the broken layer is reported");
    assert.equal(broken[0]!.stage, "config");
    assert.equal(broken[0]!.severity, "error");
    assert.equal(broken[0]!.layer, "project");
    assert.equal(typeof broken[0]!.line, "number");
    assert.equal(typeof broken[0]!.column, "number");
    assert.ok(broken[0]!.line! >= 2, `line ${broken[0]!.line} points into the broken value`);
  });

  it("rejects a layer that is not a mapping", async () => {
    await writeLayer(home, "- just\n- a list\n");
    await writeLayer(workspace, "");
    const config = loadConfig({ workspace, homeDir: home });
    assert.equal(config.diagnostics.length, 1);
    assert.equal(config.diagnostics[0]!.code, "config_not_mapping");
    assert.deepEqual(config.section("agent"), []);
  });

  it("says so, without crashing, for an alias bomb and for nesting deeper than the parser goes", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (const name of "bcdefgh") {
      const previous = String.fromCharCode(name.charCodeAt(0) - 1);
      bomb.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    await writeLayer(home, `${bomb.join("\n")}\nagent: *h\n`);
    await writeLayer(workspace, `agent: ${"[".repeat(5000)}${"]".repeat(5000)}\n`);
    const config = loadConfig({ workspace, homeDir: home });
    for (const diagnostic of config.diagnostics) {
      assert.equal(diagnostic.code, "config_yaml_error");
      assert.equal(typeof diagnostic.line, "number");
    }
    const user = config.diagnostics.filter((d) => d.layer === "user");
    const project = config.diagnostics.filter((d) => d.layer === "project");
    assert.equal(user.length, 1);
    assert.match(user[0]!.message, /aliases expand to too many values/);
    // How many places the parser gives up at depends on the stack left; the first says why.
    assert.ok(project.length >= 1 && project.length <= 11, `${project.length} diagnostics`);
    assert.match(project[0]!.message, /nested too deeply to read/);
    assert.deepEqual(config.section("agent"), []);
  });

  it("reports the first ten YAML errors of a file and sums up the rest", async () => {
    await writeLayer(home, "");
    const projectFile = await writeLayer(workspace, "a: [\n".repeat(300));
    const config = loadConfig({ workspace, homeDir: home });
    assert.equal(config.diagnostics.length, 11);
    assert.ok(config.diagnostics.every((d) => d.file === projectFile && d.line !== undefined));
    assert.match(config.diagnostics[10]!.message, /and \d+ more problems from here on$/);
  });

  it("lists top-level keys nobody claimed, with their position", async () => {
    await writeLayer(home, "");
    await writeLayer(workspace, "agent: {}\n\npermisions:\n  deny: [x]\n");
    const config = loadConfig({ workspace, homeDir: home });
    config.section("agent");
    const unknown = config.unclaimedKeys();
    assert.deepEqual(
      unknown.map((item) => [item.key, item.layer, item.position.line, item.position.column]),
      [["permisions", "project", 3, 1]],
    );
  });
});

describe("section validation", () => {
  it("points each zod issue at the offending value", async () => {
    await writeLayer(home, "");
    await writeLayer(workspace, "servers:\n  one:\n    port: 80\n  two:\n    port: eighty\n");
    const config = loadConfig({ workspace, homeDir: home });
    const [entry] = config.section<Record<string, unknown>>("servers");
    const schema = z.object({ port: z.number() });
    const result = validateSection(schema, entry!, {
      path: ["two"],
      value: entry!.value.two,
      sectionKey: "servers",
    });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.diagnostics[0]!.line, 5);
    assert.equal(result.diagnostics[0]!.column, 11);
    assert.match(result.diagnostics[0]!.message, /^servers\.two\.port: /);
  });
});

describe("variable expansion", () => {
  it("expands ${NAME} and ${NAME:-default} and reports unset names", () => {
    const env = { TOKEN: "abc", EMPTY: "" };
    assert.deepEqual(expandVariables("Bearer ${TOKEN}", env), {
      value: "Bearer abc",
      missing: [],
      substituted: true,
      values: ["abc"],
      names: ["TOKEN"],
    });
    assert.deepEqual(expandVariables("${MISSING:-fallback}", env), {
      value: "fallback",
      missing: [],
      substituted: true,
      values: [],
      names: ["MISSING"],
    });
    assert.deepEqual(expandVariables("x${MISSING}y${EMPTY}", env), {
      value: "xy",
      missing: ["MISSING", "EMPTY"],
      substituted: true,
      values: [],
      names: ["MISSING", "EMPTY"],
    });
    assert.deepEqual(expandVariables("plain $HOME text", env), {
      value: "plain $HOME text",
      missing: [],
      substituted: false,
      values: [],
      names: [],
    });
  });
});
