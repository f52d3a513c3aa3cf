import { useEffect, useState } from "preact/hooks";
import { api, post } from "../api.js";
import { notice, refreshTools, tools } from "../state.js";

interface SkillInfo {
  name: string;
  description: string;
  layer: string;
  state: string;
  path?: string;
  origin?: string;
  modelInvocable: boolean;
  allowedTools: string[];
  permissions: string[];
  allowedToolsHonoured: boolean;
  tools: string[];
}

interface LoadedSkill {
  body: string;
  files: Array<{ path: string; size: number; tool?: string }>;
}

/** Skills: the index the model sees, each with its state; load and unload by hand. */
export function SkillsPage() {
  const [skills, setSkills] = useState<SkillInfo[]>([]);
  const [modelIndex, setModelIndex] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<Record<string, LoadedSkill>>({});
  const version = tools.value;
  useEffect(() => {
    void version;
    api<{ skills: SkillInfo[]; index: string | null }>("/api/skills")
      .then((answer) => {
        setSkills(answer.skills);
        setModelIndex(answer.index);
      })
      .catch((error: Error) => notice(error.message));
  }, [version]);

  const index = skills.filter(
    (skill) => skill.modelInvocable && skill.state !== "invalid" && skill.state !== "disabled",
  );
  return (
    <div>
      <h2>Skills</h2>
      <p class="muted">
        The model's index lists {index.length} of {skills.length}: name and description, read in
        full only when loaded.
      </p>
      {modelIndex ? (
        <details data-testid="skills-index">
          <summary>What the model reads (the system prompt's Skills section)</summary>
          <pre class="summary">{modelIndex}</pre>
        </details>
      ) : null}
      <table class="grid" data-testid="skills">
        <thead>
          <tr>
            <th>skill</th>
            <th>state</th>
            <th>where</th>
            <th>in the model's index</th>
            <th>allowed tools</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {skills.map((skill) => (
            <tr key={skill.name} data-skill={skill.name}>
              <td>
                <strong>{skill.name}</strong>
                <div class="hint">{skill.description}</div>
                {loaded[skill.name] ? (
                  <details open>
                    <summary>procedure and files</summary>
                    <pre class="summary">{loaded[skill.name]?.body}</pre>
                    <ul>
                      {loaded[skill.name]?.files.map((file) => (
                        <li key={file.path}>
                          <code>{file.path}</code> {file.size} bytes
                          {file.tool ? ` · tool ${file.tool}` : ""}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </td>
              <td>
                <span class={`state ${skill.state}`}>{skill.state}</span>
              </td>
              <td class="muted">{skill.origin ?? skill.layer}</td>
              <td>{skill.modelInvocable ? "yes" : "no"}</td>
              <td>
                {skill.permissions.join(", ") || "—"}
                {skill.allowedTools.length > 0 && !skill.allowedToolsHonoured ? (
                  <div class="hint">not honoured until you trust the workspace</div>
                ) : null}
              </td>
              <td>
                {skill.state === "loaded" ? (
                  <button
                    type="button"
                    class="small"
                    onClick={async () => {
                      await post("/api/skills/unload", { name: skill.name }).catch((error: Error) =>
                        notice(error.message),
                      );
                      setLoaded(({ [skill.name]: _, ...rest }) => rest);
                      await refreshTools();
                    }}
                  >
                    Unload
                  </button>
                ) : (
                  <button
                    type="button"
                    class="small"
                    disabled={skill.state === "invalid" || skill.state === "disabled"}
                    onClick={async () => {
                      try {
                        const answer = await post<LoadedSkill>("/api/skills/load", {
                          name: skill.name,
                        });
                        setLoaded((all) => ({ ...all, [skill.name]: answer }));
                        await refreshTools();
                      } catch (error) {
                        notice((error as Error).message);
                      }
                    }}
                  >
                    Load
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {skills.length === 0 ? (
        <p class="muted">No skills found in this workspace or your home.</p>
      ) : null}
    </div>
  );
}
