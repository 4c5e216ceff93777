// The types of the package's `./cli` export (launcher/svc-manifest-git.cjs, the bin), which the
// validator's `svc-manifest git …` requires to run the applier in its own process.

/** Runs `svc-manifest-git <argv>` in this process (stdout, stderr and the working directory are the process's); resolves to its exit code. */
export declare function runGitCommand(argv: readonly string[]): Promise<number>;

/** The commands that keep a code cache of their own (those of the operation table). */
export declare const OPERATIONS: readonly string[];
