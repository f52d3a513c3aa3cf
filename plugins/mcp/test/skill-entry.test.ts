import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { parseSkillEntry } from "../src/features/skills/skill-entry.js";
import { verifySkillFile } from "../src/features/skills/verify-skill-file.js";

const digestOf = (text: string) =>
  `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
const SKILL = "---\nname: refunds\ndescription: Refund a customer\n---\nBody.\n";
const file = (uri: string, text = SKILL) => ({
  uri,
  digest: digestOf(text),
  size: Buffer.byteLength(text),
});

function entry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uri: "skill://acme/billing/refunds/SKILL.md",
    frontmatter: { name: "refunds", description: "Refund a customer" },
    resources: [file("skill://acme/billing/refunds/SKILL.md")],
    ...overrides,
  };
}

function problemOf(raw: unknown): string {
  const parsed = parseSkillEntry(raw);
  assert.equal(parsed.ok, false, "refused");
  return parsed.ok ? "" : parsed.problem;
}

describe("a skills/list entry (SEP-2640)", () => {
  it("keys a skill by its path and gives each file's path inside the skill", () => {
    const parsed = parseSkillEntry(
      entry({
        resources: [
          file("skill://acme/billing/refunds/SKILL.md"),
          file("skill://acme/billing/refunds/examples/email.md", "Dear customer"),
        ],
      }),
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.entry.key, "acme/billing/refunds");
    assert.deepEqual(
      parsed.entry.resources.map((resource) => [resource.path, resource.size]),
      [
        ["SKILL.md", Buffer.byteLength(SKILL)],
        ["examples/email.md", 13],
      ],
    );
  });

  it("prefixes another scheme's skill path with the scheme, so it cannot take a skill:// key", () => {
    const parsed = parseSkillEntry(
      entry({
        uri: "github://o/r/refunds/SKILL.md",
        resources: [file("github://o/r/refunds/SKILL.md")],
      }),
    );
    assert.ok(parsed.ok);
    assert.equal(parsed.entry.key, "github/o/r/refunds");
  });

  it("refuses entries that cannot be verified or break the manifest rules, saying why", () => {
    assert.match(problemOf(entry({ resources: "dynamic" })), /"dynamic" \(no digests\)/);
    assert.match(problemOf(entry({ resources: undefined })), /no resources list/);
    assert.match(
      problemOf(entry({ frontmatter: { name: "other", description: "x" } })),
      /last segment of its path \("refunds"\) is not its front matter's name \("other"\)/,
    );
    assert.match(
      problemOf(entry({ resources: [file("skill://acme/billing/refunds/notes.md", "n")] })),
      /do not list the SKILL\.md itself/,
    );
    assert.match(
      problemOf(
        entry({
          resources: [
            file("skill://acme/billing/refunds/SKILL.md"),
            file("skill://acme/billing/other/SKILL.md"),
          ],
        }),
      ),
      /outside the skill's folder/,
    );
    assert.match(
      problemOf(
        entry({
          resources: [{ ...file("skill://acme/billing/refunds/SKILL.md"), digest: "md5:00" }],
        }),
      ),
      /no digest of the form sha256/,
    );
    assert.match(
      problemOf(
        entry({
          resources: [{ ...file("skill://acme/billing/refunds/SKILL.md"), size: undefined }],
        }),
      ),
      /no size in bytes/,
    );
    assert.match(
      problemOf(
        entry({
          resources: [{ ...file("skill://acme/billing/refunds/SKILL.md"), size: 17 * 1024 * 1024 }],
        }),
      ),
      /over the limit of 16777216/,
    );
    assert.match(
      problemOf(entry({ uri: "skill://acme/refunds/README.md" })),
      /not the URI of a SKILL\.md/,
    );
  });
});

describe("verifying a skill file read", () => {
  const listed = {
    uri: "skill://refunds/SKILL.md",
    path: "SKILL.md",
    digest: digestOf(SKILL),
    size: Buffer.byteLength(SKILL),
  };

  it("returns text and blob content that matches size and digest", () => {
    assert.equal(verifySkillFile([{ uri: listed.uri, text: SKILL }], listed, "here"), SKILL);
    const blob = Buffer.from(SKILL).toString("base64");
    assert.equal(verifySkillFile([{ uri: listed.uri, blob }], listed, "here"), SKILL);
  });

  it("checks the size first, then the digest, and says what was expected and what came", () => {
    assert.throws(
      () => verifySkillFile([{ uri: listed.uri, text: `${SKILL}!` }], listed, "server s"),
      new RegExp(
        `server s: skill://refunds/SKILL.md is ${listed.size + 1} bytes, but the server's listing says ${listed.size}`,
      ),
    );
    const swapped = SKILL.replace("Body", "Evil");
    assert.throws(
      () => verifySkillFile([{ uri: listed.uri, text: swapped }], listed, "server s"),
      (error: Error) =>
        error.message.includes(
          `has digest ${digestOf(swapped)}, but the server's listing says ${listed.digest}`,
        ),
    );
  });
});
