import { describe, expect, it } from 'vitest';
import { checkBaseUrl, refusalOf } from '../../server/net/outbound';
import { registryWhyOf } from './admin-models-refusals';

/** An error as the HTTP client gives it: the server's sentence kept as its description. */
const said = (msg: string) => Object.assign(new Error(msg), { status: 400, description: msg });
/** The server's sentences, built as server/models/admin.ts builds them. */
const addressRefused = (why: string) => said(`The provider's address is refused: ${why}.`);
const discoveryFailed = (why: string) => said(`Acme AI could not be asked for its models: ${why}.`);
const policy = { privateNetwork: false };

describe("why the server refused a provider's address, in kinds the console says", () => {
  it.each([
    ['http://10.1.2.3/v1', 'privateNetwork'],
    ['http://127.0.0.1:11434/v1', 'privateNetwork'],
    ['http://localhost:11434/v1', 'privateNetwork'],
    ['http://[fd00::1]/v1', 'privateNetwork'],
    ['http://169.254.169.254/latest', 'notPublic'],
    ['http://224.0.0.1/v1', 'notPublic'],
    ['ftp://models.example/v1', 'malformedAddress'],
    ['https://user:secret@models.example/v1', 'malformedAddress'],
    ['https://models.example/v1?key=1', 'malformedAddress'],
    ['models.example/v1', 'malformedAddress'],
  ])('%s: %s', (address, kind) => {
    const refusal = checkBaseUrl(address, policy);
    expect(typeof refusal, 'the server refuses it').toBe('string');
    expect(registryWhyOf(addressRefused(refusal as string))).toEqual({ kind });
  });

  it('reads a name that resolves to a refused address as its address', () => {
    expect(registryWhyOf(addressRefused(`models.internal resolves to ${refusalOf('192.168.1.20', policy)}`))).toEqual({ kind: 'privateNetwork' });
    expect(registryWhyOf(discoveryFailed(`models.internal resolves to ${refusalOf('169.254.169.254', policy)}`))).toEqual({ kind: 'notPublic' });
  });
});

describe('why a provider could not be asked for its models', () => {
  // The reasons server/net/outbound.ts (guardedGet) and server/models/admin.ts (discoverModels) give.
  it.each([
    ['it answered HTTP 401', { kind: 'httpStatus', status: 401 }],
    ['it answered HTTP 500', { kind: 'httpStatus', status: 500 }],
    ['it answered a redirect (302), which is not followed', { kind: 'redirect' }],
    ['its answer is larger than 1048576 bytes', { kind: 'tooLarge' }],
    ['its answer is not JSON', { kind: 'notAList' }],
    ['its answer has no model list (`data`)', { kind: 'notAList' }],
    ['no answer within 10 s', { kind: 'timeout' }],
    ['could not connect (ECONNREFUSED)', { kind: 'unreachable' }],
    ['the answer broke off', { kind: 'unreachable' }],
    ['models.example does not resolve', { kind: 'unresolved' }],
    ['its key cannot be opened with this server’s CONNECTOR_KEY; save the key again', { kind: 'keyUnreadable' }],
  ])('%s', (why, expected) => {
    expect(registryWhyOf(discoveryFailed(why))).toEqual(expected);
  });

  it('has nothing to say of a sentence it does not know, or of no answer at all', () => {
    expect(registryWhyOf(said('Something else entirely.'))).toBeUndefined();
    expect(registryWhyOf(Object.assign(new Error('The server cannot be reached.'), { unreachable: true }))).toBeUndefined();
    expect(registryWhyOf(null)).toBeUndefined();
  });
});
