/**
 * A failed answer is told to a person as one generic sentence and a reference; the details (the
 * model service's own words, its address) are in the server log under that reference only.
 * The stored message keeps the same text, so the SPA finds the reference in history too.
 * Free of schemas, so the chat screen can read it without the validation library.
 */
export const GENERIC_AGENT_FAILURE = 'The agent could not answer this time. Please try again.';

export const agentFailureMessage = (ref: string) => `${GENERIC_AGENT_FAILURE} (ref ${ref})`;

const REFERENCE = /\bref ([0-9A-Z]{4}-[0-9A-Z]{4})\b/;

/** The reference in a failure text of agentFailureMessage, if it has one. */
export const failureReference = (text: string | null | undefined): string | null => (text ? (REFERENCE.exec(text)?.[1] ?? null) : null);
