// The code of docs/structured-output.md: compiled by CI, so the guide cannot go stale.
import { createAgent, jsonSchemaOutput, StructuredOutputError } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";

const agent = await createAgent({
  config: false,
  provider: new ScriptedProvider([{ output: { total: 12.5, currency: "EUR" } }]),
});

// #region json-schema
interface Invoice {
  total: number;
  currency: string;
}
const InvoiceSchema = jsonSchemaOutput<Invoice>(
  {
    type: "object",
    properties: { total: { type: "number", minimum: 0 }, currency: { type: "string" } },
    required: ["total", "currency"],
    additionalProperties: false,
  },
  { name: "invoice" },
);
// #endregion

// #region failure
try {
  const { output } = await agent.run("Total of the attached invoice?", { output: InvoiceSchema });
  console.log(output.total.toFixed(2), output.currency);
} catch (error) {
  if (error instanceof StructuredOutputError) {
    // output_invalid: still wrong after one repair; output_missing: no final answer at all.
    console.error(error.code, error.issues, error.raw);
  } else throw error;
}
// #endregion
await agent.close();
