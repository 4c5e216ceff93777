/** Why a file could not be read, in words a user understands without knowing errno names. */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file (a part of the path is not a folder)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** `no such file`, `permission denied`, …; an error without a known code keeps its code, or its message. */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined) return REASONS[code] ?? `cannot be read (${code})`;
  return error instanceof Error ? error.message : String(error);
}
