import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The modules that talk to the server: the API client, its endpoints and the chat stream. */
export const SERVER_CALL_MODULES = [
  '**/services/api',
  '**/services/api/*',
  '**/services/http',
  '**/services/chat-stream',
  '**/contract/endpoints',
];
/** The browser's own ways of reaching a server. */
export const SERVER_CALL_GLOBALS = ['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'];
export const SERVER_CALL_MESSAGE =
  'Screens and components hold no service calls: give the call to the machine in src/app/<feature>-actors.ts (machine.provide({ actors })) and pass the provided logic to the screen.';

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'node_modules', '.data', 'coverage', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Screens and components only render: they start their actors through useScreenActor, which
    // reports them to the inspector, and never call the server themselves. The calls are given to
    // the machines in the app layer (src/app/*-actors.ts), the one place where side effects live.
    files: ['src/screens/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@xstate/react', importNames: ['useActorRef', 'useMachine'], message: 'Use useScreenActor (src/app/use-screen-actor.ts): it reports the actor to the inspector.' },
          ],
          patterns: [
            {
              group: SERVER_CALL_MODULES,
              allowTypeImports: true,
              message: SERVER_CALL_MESSAGE,
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...SERVER_CALL_GLOBALS.map((name) => ({ name, message: SERVER_CALL_MESSAGE }))],
    },
  },
  {
    // The server rests on its dependencies' public calls only: a private one (PGlite's locks and
    // readiness, drizzle's prepare-without-a-name and session) changes under a patch release.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name=/^_(runExclusiveQuery|runExclusiveTransaction|runExclusiveListen|checkReady|prepare)$/]",
          message: 'A private API of a dependency: use its public call (PGlite runExclusive and waitReady, drizzle prepare).',
        },
      ],
    },
  },
  {
    // Playwright fixtures: \`use\` is Playwright's, not React's, and its signature needs \`{}\`.
    files: ['tests/e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
);
