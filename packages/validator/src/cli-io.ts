/** What the `svc-manifest` command reads and writes besides files: the process's streams, as values (process-io.ts). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colours are only used then). */
  isTty: boolean;
}
