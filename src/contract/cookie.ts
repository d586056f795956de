/** The cookie that keeps the access token in the browser (the API reads only the Authorization header). */
export const TOKEN_COOKIE = 'ai-chat-ops-token';
