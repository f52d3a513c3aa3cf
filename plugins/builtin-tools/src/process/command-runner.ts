import {
  createProcessRunner,
  type ProcessOutcome,
  type ProcessRequest,
} from "@pseudoclaude/core/process";

/** One shell command line, run as `SHELL -c COMMAND` with empty standard input. */
export interface CommandRequest extends Omit<ProcessRequest, "file" | "args" | "stdin"> {
  shell: string;
  command: string;
}

/** Runs shell commands in process groups of their own and ends every one it started. */
export interface CommandRunner {
  run(request: CommandRequest): Promise<ProcessOutcome>;
  /** End every running command (SIGTERM, then SIGKILL) and wait for them. */
  close(): Promise<void>;
}

/** The kernel's process runner with a shell in front: the group handling is the kernel's. */
export class DefaultCommandRunner implements CommandRunner {
  private readonly processes = createProcessRunner();

  run({ shell, command, ...rest }: CommandRequest): Promise<ProcessOutcome> {
    return this.processes.run({ ...rest, file: shell, args: ["-c", command] });
  }

  close(): Promise<void> {
    return this.processes.close();
  }
}

export function createCommandRunner(): CommandRunner {
  return new DefaultCommandRunner();
}
