/// <reference types="vite/client" />

declare module 'virtual:ninefold-studio-doc' {
  /** The document a static studio starts from (`ninefold build --studio doc.md`), or null. */
  const initial: { text: string; name: string } | null;
  export default initial;
}
