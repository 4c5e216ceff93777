// The playground bundles the repository's example manifests as text (esbuild's text loader).
declare module '*.yaml' {
  const text: string;
  export default text;
}
declare module '*.toml' {
  const text: string;
  export default text;
}
