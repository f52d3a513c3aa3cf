// The code of docs/skills.md: compiled by CI, so the guide cannot go stale.
// #region use
import { createAgent } from "@pseudoclaude/core";
import { SkillsManager, skills } from "@pseudoclaude/plugin-skills";

const agent = await createAgent({ plugins: [skills()] });
const manager = agent.resolve<SkillsManager>(SkillsManager);
manager.list(); // every skill, with its state
await manager.load("release-notes", { by: "user" });
// #endregion
await agent.close();
