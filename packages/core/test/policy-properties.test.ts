import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { createPolicyEngine } from "../src/policy/default-policy-engine.js";
import type { PolicySettings, RuleSpec } from "../src/policy/policy-settings.js";
import { readTool, shell, writeTool } from "./support/tool-definitions.js";

/**
 * Property tests: no spelling, case, Unicode, path or shell trick turns a deny into an allow.
 * Each property draws commands (or paths) and rewrites them the way someone dodging a rule
 * would, stacking several rewrites; the policy must still deny. Counter-properties check that
 * ordinary commands are not denied wholesale, so "deny everything" would fail too.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

function engine(rules: RuleSpec[], partial: Partial<PolicySettings> = {}) {
  return createPolicyEngine({ mode: "bypass", rules, workspace: "/ws", ...partial });
}
const deny = (pattern: string): RuleSpec => ({ verdict: "deny", pattern, origin: "user" });
const allow = (pattern: string): RuleSpec => ({ verdict: "allow", pattern, origin: "project" });

const word = fc.stringMatching(/^[a-zA-Z0-9._/-]{1,10}$/);
const safeArgs = fc.array(word, { maxLength: 3 });

/** What the shell would run as `rm ARGS`, written plainly. */
const rmCall = fc.record({
  args: fc.array(fc.constantFrom("-rf", "-f", "-r", "x", "/", "~", "src", "*.log"), {
    maxLength: 3,
  }),
});

/** Ways to spell the program name `rm` that still run rm. */
const PROGRAM_SPELLINGS: Array<[string, (program: string) => string]> = [
  ["upper case", (p) => p.toUpperCase()],
  ["mixed case", (p) => p[0]!.toUpperCase() + p.slice(1)],
  ["/bin path", (p) => `/bin/${p}`],
  ["/usr/bin path", (p) => `/usr/bin/${p}`],
  ["single quotes", (p) => `'${p}'`],
  ["double quotes", (p) => `"${p}"`],
  ["empty quotes inside", (p) => `${p[0]}''${p.slice(1)}`],
  ["backslash", (p) => `\\${p}`],
  ["ANSI-C hex", (p) => `$'${[...p].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join("")}'`],
  ["ANSI-C octal", (p) => `$'${[...p].map((c) => `\\${c.charCodeAt(0).toString(8)}`).join("")}'`],
  [
    "fullwidth letters",
    (p) => [...p].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(""),
  ],
  ["zero-width joiner", (p) => `${p[0]}\u200d${p.slice(1)}`],
  ["Cyrillic look-alikes", (p) => p.replace("r", "г").replace("m", "м")],
];

/** Ways to wrap a whole command so it still runs. */
const WRAPPINGS: Array<[string, (command: string) => string]> = [
  ["assignment", (c) => `FOO=1 ${c}`],
  ["env", (c) => `env ${c}`],
  ["env -i", (c) => `env -i PATH=/bin ${c}`],
  ["sudo", (c) => `sudo ${c}`],
  ["sudo -u root", (c) => `sudo -u root ${c}`],
  ["nohup", (c) => `nohup ${c}`],
  ["timeout", (c) => `timeout 5 ${c}`],
  ["nice -n", (c) => `nice -n 10 ${c}`],
  ["command", (c) => `command ${c}`],
  ["exec", (c) => `exec ${c}`],
  ["xargs", (c) => `echo x | xargs ${c}`],
  ["sh -c", (c) => `sh -c '${c.replaceAll("'", `'\\''`)}'`],
  [
    "bash -lc",
    (c) => `bash -lc "${c.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("$", "\\$")}"`,
  ],
  ["eval", (c) => `eval '${c.replaceAll("'", `'\\''`)}'`],
  ["$(...)", (c) => `echo $(${c})`],
  ["backticks", (c) => `echo \`${c}\``],
  ["<(...)", (c) => `cat <(${c})`],
  ["subshell", (c) => `(${c})`],
  ["group", (c) => `{ ${c}; }`],
  ["after ;", (c) => `ls; ${c}`],
  ["after &&", (c) => `true && ${c}`],
  ["after ||", (c) => `false || ${c}`],
  ["after a pipe", (c) => `ls | ${c}`],
  ["after a new line", (c) => `ls\n${c}`],
  ["in the background", (c) => `${c} &`],
  ["$IFS for spaces", (c) => c.replaceAll(" ", "${IFS}")],
  ["a variable", (c) => `X=${c.split(" ")[0]}; $X ${c.split(" ").slice(1).join(" ")}`],
  ["find -exec", (c) => `find . -exec ${c} {} \\;`],
];

/** Wrappings that put a program before the command (the rest take the whole line). */
const PREFIXES = new Set([
  "assignment",
  "env",
  "env -i",
  "sudo",
  "sudo -u root",
  "nohup",
  "timeout",
  "nice -n",
  "command",
  "exec",
  "xargs",
  "find -exec",
]);

const spelled = fc.record({
  call: rmCall,
  spellings: fc.array(fc.integer({ min: 0, max: PROGRAM_SPELLINGS.length - 1 }), {
    maxLength: 2,
  }),
  wrappings: fc.array(fc.integer({ min: 0, max: WRAPPINGS.length - 1 }), { maxLength: 3 }),
});

function build(sample: { call: { args: string[] }; spellings: number[]; wrappings: number[] }): {
  command: string;
  how: string;
} {
  let program = "rm";
  const how: string[] = [];
  for (const index of sample.spellings) {
    const [name, apply] = PROGRAM_SPELLINGS[index]!;
    // Quoting a quoted word changes what it means, and case or byte escapes of a Unicode
    // look-alike make another word: those apply to a name still plain ASCII and unquoted.
    if (program !== "rm" && /['"\\$]/.test(program)) continue;
    if (/case|ANSI-C|quote|backslash|fullwidth/.test(name) && /[^ -~]/.test(program)) continue;
    program = apply(program);
    how.push(name);
  }
  let command = [program, ...sample.call.args].join(" ");
  let wrapped = false;
  for (const index of sample.wrappings) {
    const [name, apply] = WRAPPINGS[index]!;
    // `X=rm; $X` means rm as a whole line of its own: made of a simple command, and not put
    // behind a program (`env X=rm; $X` sets X for env alone).
    if (name === "a variable" && wrapped) continue;
    if (how.includes("a variable") && PREFIXES.has(name)) continue;
    // `${IFS}` splits words of a simple command; the shell parses `{`, `(` and `;` before it.
    if (name === "$IFS for spaces" && wrapped) continue;
    command = apply(command);
    how.push(name);
    wrapped = true;
  }
  return { command, how: how.join(" + ") || "plain" };
}

describe("property: a denied command stays denied however it is written", () => {
  it("run_command(rm*) denied: case, paths, quotes, escapes, Unicode, wrappers, shells, chains", () => {
    const policy = engine([deny("run_command(rm*)")]);
    fc.assert(
      fc.property(spelled, (sample) => {
        const { command, how } = build(sample);
        const decision = policy.decide(shell, { command });
        assert.equal(decision.verdict, "deny", `${how}: ${JSON.stringify(command)}`);
      }),
      { numRuns: RUNS },
    );
  });

  it("every rewrite on its own is denied (each is seen, not only some by luck)", () => {
    const policy = engine([deny("run_command(rm*)")]);
    for (const [name, apply] of PROGRAM_SPELLINGS) {
      const command = `${apply("rm")} -rf x`;
      assert.equal(policy.decide(shell, { command }).verdict, "deny", `${name}: ${command}`);
    }
    for (const [name, apply] of WRAPPINGS) {
      const command = apply("rm -rf x");
      assert.equal(policy.decide(shell, { command }).verdict, "deny", `${name}: ${command}`);
    }
  });

  it("a command that builds its program at run time is asked, never allowed, even in bypass mode", () => {
    const policy = engine([deny("run_command(rm*)")]);
    fc.assert(
      fc.property(
        fc.constantFrom(
          "$(printf r)m -rf x",
          "`echo rm` -rf x",
          "$CMD -rf x",
          "${X:-rm} -rf x",
          "ls; $UNKNOWN x",
        ),
        safeArgs,
        (command, args) => {
          const full = [command, ...args].join(" ");
          const decision = policy.decide(shell, { command: full });
          assert.notEqual(decision.verdict, "allow", full);
        },
      ),
      { numRuns: 50 },
    );
    const decision = policy.decide(shell, { command: "$(printf r)m -rf x" });
    assert.equal(decision.verdict, "ask");
    assert.equal(decision.matched.kind, "unclear_command");
  });

  it("an allow rule never lets a chained, substituted or wrapped rm through", () => {
    const policy = engine([allow("run_command(git status*)")], { mode: "default" });
    fc.assert(
      fc.property(spelled, fc.constantFrom(";", "&&", "||", "|", "\n", "&"), (sample, glue) => {
        const { command } = build(sample);
        const full = `git status ${glue} ${command}`;
        assert.notEqual(policy.decide(shell, { command: full }).verdict, "allow", full);
        const substituted = `git status $(${command})`;
        assert.notEqual(policy.decide(shell, { command: substituted }).verdict, "allow");
      }),
      { numRuns: RUNS },
    );
  });

  it("ordinary commands are not denied by run_command(rm*)", () => {
    const policy = engine([deny("run_command(rm*)")]);
    fc.assert(
      fc.property(
        fc.constantFrom("ls", "echo", "cat", "git status", "npm test", "grep -n", "git commit -m"),
        safeArgs,
        (program, args) => {
          const command = [program, ...args.filter((arg) => !/^rm/i.test(arg))].join(" ");
          assert.equal(policy.decide(shell, { command }).verdict, "allow", command);
        },
      ),
      { numRuns: RUNS },
    );
    // Words that only mention rm are not a call of it.
    for (const command of ["echo rm -rf x", "git commit -m 'rm old files'", "grep rm notes.txt"])
      assert.equal(policy.decide(shell, { command }).verdict, "allow", command);
  });
});

describe("property: a denied path stays denied however it is written", () => {
  let base: string;
  let ws: string;
  before(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), "pc-policy-prop-"));
    ws = path.join(base, "ws");
    await mkdir(path.join(ws, "secrets", "deep"), { recursive: true });
    await mkdir(path.join(ws, "src"), { recursive: true });
    await symlink(path.join(ws, "secrets"), path.join(ws, "src", "alias"));
    await symlink(path.join(ws, "secrets", "deep"), path.join(ws, "deeplink"));
  });
  after(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const segment = fc.stringMatching(/^[a-z0-9_]{1,8}$/);
  const PATH_SPELLINGS: Array<[string, (relative: string) => string]> = [
    ["as written", (p) => p],
    ["./ prefix", (p) => `./${p}`],
    ["a detour through ..", (p) => `src/../${p}`],
    ["a deeper detour", (p) => `src/a/b/../../../${p}`],
    ["doubled slashes", (p) => p.replaceAll("/", "//")],
    ["trailing slash", (p) => `${p}/`],
    ["absolute", (p) => path.join(ws, p)],
    ["upper case", (p) => p.toUpperCase()],
    ["first letter upper case", (p) => p[0]!.toUpperCase() + p.slice(1)],
    ["through a link", (p) => p.replace(/^secrets/, "src/alias")],
    ["through a deeper link", (p) => p.replace(/^secrets\/deep/, "deeplink")],
  ];

  it("write_file(secrets/**) and read_file(secrets/**) denied: .., links, case, slashes", () => {
    const policy = createPolicyEngine({
      mode: "bypass",
      workspace: ws,
      rules: [
        deny("write_file(secrets/**)"),
        deny("read_file(secrets/**)"),
        allow("write_file(src/**)"),
      ],
    });
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: PATH_SPELLINGS.length - 1 }), {
          minLength: 1,
          maxLength: 2,
        }),
        (segments, deep, spellings) => {
          let target = ["secrets", ...(deep ? ["deep"] : []), ...segments].join("/");
          const how: string[] = [];
          for (const index of spellings) {
            const [name, apply] = PATH_SPELLINGS[index]!;
            // An absolute path is already past what the other spellings rewrite. On this file
            // system (case-sensitive) `SRC/ALIAS` is not the link, so case comes before links.
            if (path.isAbsolute(target)) continue;
            if (name.includes("case") && how.some((done) => done.includes("link"))) continue;
            target = apply(target);
            how.push(name);
          }
          for (const tool of [writeTool, readTool]) {
            const decision = policy.decide(tool, { path: target });
            assert.equal(decision.verdict, "deny", `${tool.name} ${how.join(" + ")}: ${target}`);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("paths outside the denied folder are not denied", () => {
    const policy = createPolicyEngine({
      mode: "bypass",
      workspace: ws,
      rules: [deny("write_file(secrets/**)")],
    });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), (segments) => {
        const target = ["src", ...segments].join("/");
        if (target.startsWith("src/alias")) return;
        assert.equal(policy.decide(writeTool, { path: target }).verdict, "allow", target);
      }),
      { numRuns: RUNS },
    );
  });
});
