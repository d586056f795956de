/**
 * Why the server refused a provider's address or could not read its models, sorted into the
 * kinds the console says in the admin's language. The server says why in English beside its
 * `reason` (MODEL_ADDRESS_REFUSED, MODEL_DISCOVERY_FAILED); its words are never shown, only
 * read here for their kind (`admin-models-refusals.test.ts` holds this to the server's own words).
 */
export type RegistryWhy =
  | { kind: 'privateNetwork' }
  | { kind: 'notPublic' }
  | { kind: 'malformedAddress' }
  | { kind: 'unresolved' }
  | { kind: 'httpStatus'; status: number }
  | { kind: 'redirect' }
  | { kind: 'tooLarge' }
  | { kind: 'notAList' }
  | { kind: 'timeout' }
  | { kind: 'unreachable' }
  | { kind: 'keyUnreadable' };

const KINDS: [RegExp, Exclude<RegistryWhy['kind'], 'httpStatus'>][] = [
  [/\b(loopback|private|carrier-grade-nat|unique-local) address/, 'privateNetwork'],
  [/\b(link-local|multicast|reserved|unspecified|not-an-ip) address/, 'notPublic'],
  [/not a URL|is not allowed \(http or https only\)|user name or password in the URL|query or fragment in the URL/, 'malformedAddress'],
  [/does not resolve/, 'unresolved'],
  [/answered a redirect/, 'redirect'],
  [/answer is larger than/, 'tooLarge'],
  [/answer is not JSON|has no model list/, 'notAList'],
  [/no answer within/, 'timeout'],
  [/could not connect|the answer broke off/, 'unreachable'],
  [/key cannot be opened/, 'keyUnreadable'],
];

/** What the server said, as a person would read it: the envelope's `msg` the client kept. */
const saidOf = (error: unknown): string => {
  if (typeof error !== 'object' || error === null) return '';
  const { description, message } = error as { description?: unknown; message?: unknown };
  return typeof description === 'string' ? description : typeof message === 'string' ? message : '';
};

export const registryWhyOf = (error: unknown): RegistryWhy | undefined => {
  const said = saidOf(error);
  const status = /answered HTTP (\d{3})/.exec(said)?.[1];
  if (status) return { kind: 'httpStatus', status: Number(status) };
  const kind = KINDS.find(([pattern]) => pattern.test(said))?.[1];
  return kind ? { kind } : undefined;
};
