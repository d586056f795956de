/**
 * Secrets taken out of a log line by their shape, at the one place lines are written
 * (`safeLog`), so that no caller, at any level, can write one: share, reset and invitation
 * tokens, session tokens and ids, scan-login ids and fingerprints, OAuth codes and states,
 * credentials of Authorization and cookies.
 */
export const HIDDEN = '[hidden]';

/** A parameter, field or header whose value is a secret: `token`, `scanId`, `fingerPrint`, `state`… */
export const SECRET_NAME = /(?:token|code|state|scan_?id|finger_?print|session|sid|invit|reset|pass|secret|key|auth|ticket|signature|cookie|credential|visitor)/i;

const NAME = String.raw`[A-Za-z][\w.-]*`;

/** `name=value` in a query string, a form or prose. */
const PAIR = new RegExp(String.raw`(${NAME})=([^&\s#"';,)<>]*)`, 'g');
/** `"name": "value"` in JSON. */
const JSON_PAIR = new RegExp(String.raw`("(${NAME})"\s*:\s*)"(?:[^"\\]|\\.)*"`, 'g');
/** `Authorization: …`, `Cookie: …`, `Set-Cookie: …` as a header is written. */
const HEADER = /\b(authorization|proxy-authorization|set-cookie|cookie|x-visitor-id)(\s*:\s*)[^\n,}]*/gi;
/** A credential after its scheme, wherever it appears. */
const SCHEME = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;
/** `session 1f0c…`, `scan id abc…`, `fingerprint …`: an id named in a sentence (one holding a digit, or long). */
const NAMED_ID =
  /\b(session(?:\s+id)?|scan[\s_-]?id|scan ticket|ticket|finger[\s_-]?print|token|invitation|reset link|share)(\s+|\s*[:#]\s*)(?=[\w-]*\d|[\w-]{16})[\w-]{8,}/gi;
/**
 * A path segment after a place whose next segment is a token (`/share/<token>`, the SPA's and
 * the API's alike). The API's own words there (`/share/create`, `/share/detail`) stay readable.
 */
const TOKEN_PATH = /\/(share|shares|s|reset-password|reset|invitation|invitations|invite|scan-approval|scan)\/([^/?#\s"']+)/gi;
const PLAIN_WORD = /^[a-z]+(?:-[a-z]+)*$/;
/**
 * What this server's tokens look like anywhere, a failed query's parameters at debug included:
 * 24 or 32 random bytes in base64url (scan ids, OAuth states; session, share, reset and
 * invitation tokens and their hashes), letters mixed with digits or of both cases.
 */
const TOKEN_SHAPE = /(?<![\w-])(?:[\w-]{32}|[\w-]{43})(?![\w-])/g;
const looksRandom = (run: string) => /[A-Za-z]/.test(run) && (/\d/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run)));

export function redactSecrets(line: string): string {
  return line
    .replace(SCHEME, (_, scheme: string) => `${scheme} ${HIDDEN}`)
    .replace(HEADER, (_, name: string, colon: string) => `${name}${colon}${HIDDEN}`)
    .replace(JSON_PAIR, (whole, head: string, name: string) => (SECRET_NAME.test(name) ? `${head}"${HIDDEN}"` : whole))
    .replace(PAIR, (whole, name: string, value: string) => (SECRET_NAME.test(name) && value !== HIDDEN ? `${name}=${HIDDEN}` : whole))
    .replace(TOKEN_PATH, (whole, place: string, segment: string) => (PLAIN_WORD.test(segment) ? whole : `/${place}/${HIDDEN}`))
    .replace(NAMED_ID, (_, name: string, gap: string) => `${name}${gap}${HIDDEN}`)
    .replace(TOKEN_SHAPE, (run) => (looksRandom(run) ? HIDDEN : run));
}
