/**
 * Import rules checked in the gate (`npm run lint`): no module of the SPA or the server imports
 * itself back through others, type-only imports included (a circle of types is still two modules
 * that cannot be understood one without the other; a shared type belongs in a leaf module).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports: modules that cannot be understood or loaded one without the other.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(dist|node_modules|\\.tmp)/' },
  },
};
