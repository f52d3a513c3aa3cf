import type { ApprovalAnswer, JournalDecisionRequest, RunJournal } from "@pseudoclaude/core";

/** Thrown by a {@link MemoryJournal} set to crash: the worker "died" at that step. */
export class WorkerCrash extends Error {
  constructor(readonly step: string) {
    super(`worker crashed during step ${step}`);
    this.name = "WorkerCrash";
  }
}

/**
 * A durable journal kept in memory, for tests of replay: it records each step's result as
 * JSON (so what does not survive serialization fails here as it would on a real engine), and a
 * run given the same journal again replays the records. `crashDuring(name)` makes the step
 * whose name matches throw {@link WorkerCrash} after its work started and before its result
 * was recorded, as a worker killed mid-step; the next run over this journal is its replay.
 */
export class MemoryJournal implements RunJournal {
  /** Step name -> the recorded result, as JSON. */
  readonly records = new Map<string, string>();
  /** Steps whose work ran, in order, across every run over this journal. */
  readonly ran: string[] = [];
  /** Decisions asked of `awaitDecision`, in order. */
  readonly asked: JournalDecisionRequest[] = [];
  private crashAt: RegExp | undefined;

  constructor(
    readonly onInterruptedSideEffect: RunJournal["onInterruptedSideEffect"] = "ask",
    /** Answers `awaitDecision`; without it the journal has none and the agent's approver asks. */
    decide?: (request: JournalDecisionRequest) => ApprovalAnswer,
  ) {
    if (decide)
      this.awaitDecision = async (request) => {
        this.asked.push(request);
        const key = `decision:${request.step}`;
        const recorded = this.records.get(key);
        if (recorded !== undefined) return JSON.parse(recorded) as ApprovalAnswer;
        const answer = decide(request);
        this.records.set(key, JSON.stringify(answer));
        return answer;
      };
  }

  awaitDecision?: (request: JournalDecisionRequest) => Promise<ApprovalAnswer>;

  /** The next step whose name matches dies mid-step (once). */
  crashDuring(name: RegExp): void {
    this.crashAt = name;
  }

  async step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const recorded = this.records.get(name);
    if (recorded !== undefined) return JSON.parse(recorded) as T;
    this.ran.push(name);
    if (this.crashAt?.test(name)) {
      this.crashAt = undefined;
      // The work is under way when the worker dies: start it, then never record it.
      void fn().catch(() => undefined);
      throw new WorkerCrash(name);
    }
    const value = await fn();
    this.records.set(name, JSON.stringify(value));
    return JSON.parse(JSON.stringify(value)) as T;
  }
}
