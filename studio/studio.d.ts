/// <reference types="vite/client" />

declare module 'virtual:ninefold-studio-doc' {
  /** The document a static studio starts from (`ninefold build --studio doc.md`), or null. */
  const initial: { text: string; name: string } | null;
  export default initial;
}

declare module 'virtual:ninefold-studio-base' {
  /** Where the base database (initdb's output, src/cli/studioBasePlugin.ts) is served, relative to the page. */
  const url: string;
  export default url;
}
