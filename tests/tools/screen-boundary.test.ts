import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of the boundary rules for a piece of code, as if it lived at `filePath`. */
const boundaryMessages = async (code: string, filePath: string) => {
  const results = await eslint.lintText(code, { filePath: resolve(ROOT, filePath) });
  return results.flatMap((result) => result.messages).filter((message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-globals');
};

describe('screens and components hold no service calls', () => {
  it.each([
    ['src/components/attachment-list.tsx', "import { uploadFileWithProgress } from '../services/api/media';\nexport const f = uploadFileWithProgress;\n"],
    ['src/screens/chat/share-links.tsx', "import { listShares } from '../../services/api/shares';\nexport const f = listShares;\n"],
    ['src/screens/share/page.tsx', "import { call } from '../../services/http';\nexport const f = call;\n"],
    ['src/screens/chat/page.tsx', "import { endpoints } from '../../contract/endpoints';\nexport const f = endpoints;\n"],
    ['src/components/stream.tsx', "import { streamChat } from '../services/chat-stream';\nexport const f = streamChat;\n"],
  ])('%s may not import the client', async (filePath, code) => {
    const messages = await boundaryMessages(code, filePath);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.ruleId).toBe('no-restricted-imports');
    expect(messages[0]?.message).toContain('src/app/<feature>-actors.ts');
  });

  it.each(['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'])('a screen may not reach the server with %s', async (name) => {
    const messages = await boundaryMessages(`export const f = () => ${name};\n`, 'src/screens/agents/agents-market.tsx');
    expect(messages.map((message) => message.ruleId)).toEqual(['no-restricted-globals']);
    expect(messages[0]?.message).toContain('src/app/<feature>-actors.ts');
  });

  it('allows a type from the client, the same import in the app layer, and a screen test', async () => {
    expect(await boundaryMessages("import type { ApiError } from '../../services/http';\nexport type E = ApiError;\n", 'src/screens/chat/x.tsx')).toEqual([]);
    const call = "import { listShares } from '../services/api/shares';\nexport const f = listShares;\n";
    expect(await boundaryMessages(call, 'src/app/share-actors.ts')).toEqual([]);
    expect(await boundaryMessages(call, 'src/components/x.test.tsx')).toEqual([]);
  });
});
