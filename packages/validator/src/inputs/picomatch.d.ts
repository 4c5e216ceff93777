// The part of picomatch's API walk.ts uses (picomatch ships no types; @types/picomatch would be
// one more package to install for three lines).
declare module 'picomatch' {
  interface PicomatchOptions {
    /** Match names that start with a dot where the glob does not write one. */
    dot?: boolean;
  }
  function picomatch(glob: string | readonly string[], options?: PicomatchOptions): (path: string) => boolean;
  export = picomatch;
}
