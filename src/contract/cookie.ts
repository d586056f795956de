/** The cookie that keeps the access token in the browser (the API reads only the Authorization header). */
export const TOKEN_COOKIE = 'ai-chat-ops-token';

/**
 * The visitor's id, also kept in a cookie so that <img> and links can fetch the visitor's own
 * files (they cannot send X-Visitor-Id); read only by the file route.
 */
export const VISITOR_COOKIE = 'ai-chat-ops-visitor';
