import { useState } from "preact/hooks";
import { post } from "../api.js";
import { notice, pending } from "../state.js";
import type { PendingApproval, PendingElicitation } from "../types.js";
import { SchemaForm } from "./schema-form.js";
import { initialValue, pruneEmpty, validateForm } from "./schema-values.js";

/**
 * What waits for the person, on every page: tool calls the policy asks about, and servers'
 * questions. The oldest is shown first; each answer goes back to the agent at once.
 */
export function Questions() {
  const first = pending.value[0];
  if (!first) return null;
  return (
    <div class="questions" role="dialog" aria-label="waiting for you">
      <div class="question-card">
        {pending.value.length > 1 ? (
          <p class="muted">{pending.value.length - 1} more waiting after this one</p>
        ) : null}
        {first.kind === "approval" ? (
          <Approval key={first.id} item={first} />
        ) : (
          <Elicitation key={first.id} item={first} />
        )}
      </div>
    </div>
  );
}

function Approval({ item }: { item: PendingApproval }) {
  const [reason, setReason] = useState("");
  const answer = (verdict: "allow" | "allow_session" | "deny") =>
    post(`/api/approvals/${item.id}`, { verdict, reason }).catch((error: Error) =>
      notice(error.message),
    );
  return (
    <div data-testid="approval">
      <h3>
        Allow <code>{item.tool}</code>?
      </h3>
      <p class="muted">
        {item.source} · {item.safety}
        {item.parentCallId ? (
          <span data-testid="approval-program"> · a call of the program {item.parentCallId}</span>
        ) : null}
      </p>
      <p>{item.reason}</p>
      <pre class="mono args">{JSON.stringify(item.arguments, null, 2)}</pre>
      <input
        type="text"
        placeholder="Reason for the model, if you deny (optional)"
        aria-label="reason"
        value={reason}
        onInput={(event) => setReason((event.target as HTMLInputElement).value)}
      />
      <div class="buttons">
        <button type="button" class="primary" onClick={() => void answer("allow")}>
          Allow once
        </button>
        <button type="button" onClick={() => void answer("allow_session")}>
          Allow {item.sessionKey} for this session
        </button>
        <button type="button" class="danger" onClick={() => void answer("deny")}>
          Deny
        </button>
      </div>
    </div>
  );
}

function Elicitation({ item }: { item: PendingElicitation }) {
  const [value, setValue] = useState<unknown>(() => initialValue(item.requestedSchema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const answer = (action: "accept" | "decline" | "cancel") => {
    if (action === "accept" && item.mode === "form") {
      const found = validateForm(item.requestedSchema, value);
      setErrors(found);
      if (Object.keys(found).length > 0) return;
    }
    const content = action === "accept" && item.mode === "form" ? pruneEmpty(value) : undefined;
    void post(`/api/elicitations/${item.id}`, { action, content }).catch((error: Error) =>
      notice(error.message),
    );
  };
  return (
    <div data-testid="elicitation">
      <h3>{item.source} asks</h3>
      <p>{item.message}</p>
      {item.mode === "url" && item.url ? (
        <p>
          It asks you to open{" "}
          <a href={item.url} target="_blank" rel="noopener noreferrer">
            {item.url}
          </a>{" "}
          (outside the studio).
        </p>
      ) : (
        <SchemaForm
          schema={item.requestedSchema}
          value={value}
          errors={errors}
          onChange={setValue}
        />
      )}
      <div class="buttons">
        <button type="button" class="primary" onClick={() => answer("accept")}>
          {item.mode === "url" ? "I will go there" : "Send"}
        </button>
        <button type="button" onClick={() => answer("decline")}>
          Decline
        </button>
        <button type="button" onClick={() => answer("cancel")}>
          Cancel
        </button>
      </div>
    </div>
  );
}
