/** One locale's shell translations, served by the `locale-shell` Vite plugin (vite.config.ts). */
declare module 'virtual:locale-shell/*' {
  const bundle: Record<string, unknown>;
  export default bundle;
}
